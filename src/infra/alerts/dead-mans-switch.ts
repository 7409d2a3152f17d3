import type { Pause } from "../jobs/contract/pause.ts"
import type { StreamClient } from "../schedules/client/stream-client.ts"
import type { ScheduleView } from "../schedules/contract/view.ts"
import type { AlertNotice, BareNotice } from "./notice.ts"
import { noticeId } from "./notice.ts"

/** The switch's schedule id in the alert stream. */
export const SWITCH_ID = "heartbeat-late"

const iso = (ms: number) => new Date(ms).toISOString()

/** What one run of the alerts job did with the switch ("off": there is none, and no rule asks for one). */
export type SwitchStep = "armed" | "firing" | "resolved" | "off"

/** What a run knows when it tends the switch. */
export interface SwitchRun {
  /** The heartbeat-late rule's `after`, or undefined when no such rule is declared (any switch is disarmed). */
  afterMs: number | undefined
  /** The slot the alerts job runs for: only named in the notices. */
  slot: number
  /** The database's now: the switch is armed and judged by it, never by the slot (a catch-up runs past slots). */
  now: number
  /** The time the switch was last armed for, as D1 recorded it (switch-record.ts), or null. */
  armedFor: number | null
  /** The alerts job's own pauses since the switch was armed: a resolved notice names them. */
  pauses: () => Promise<readonly Pause[]>
}

/** The step, and the time to record the switch armed for (null: forget it; undefined: leave the record as it is). */
export interface SwitchOutcome {
  step: SwitchStep
  armedFor: number | null | undefined
}

/** A delivery of the switch is under way (due, claimed or retrying): it is never moved or withdrawn then. */
const underWay = (view: SwitchView, now: number) =>
  // An attempt (claimed, or retrying) counts in `attempts` from its claim on.
  view.state === "scheduled" && (view.nextAt <= now || view.attempts > 0)

/**
 * The switch's firing notice's summary, a function of the time it is armed for alone: a switch the stream swept is
 * still resolved with it as its cause (D1 keeps that time), word for word.
 */
export const switchSummary = (armedFor: number) =>
  `the heartbeat is late or the alerts job is paused: no run of the alerts job pushed its dead man's switch back before ${iso(armedFor)}`

/** What a run decides of the switch from what the stream holds: pure, so its states are checked on their own. */
export interface SwitchPlan extends SwitchOutcome {
  /**
   * The incident the resolved notice ends, when the switch was delivered (or swept after it was due), and its
   * cause: the summary its firing notice was delivered with.
   */
  resolve: { openedAt: number; resolvedAt: number; cause: string } | null
  /** Withdraw the switch (no heartbeat-late rule): cancel it first while scheduled, then remove it. */
  withdraw: { cancel: boolean } | null
  /** Arm it (again), due at this time: the database's now plus `afterMs`. */
  armAt: number | null
}

/** The switch as a run reads it from the stream: undefined when the stream holds none. */
export type SwitchView = Pick<ScheduleView, "state" | "nextAt" | "attempts" | "payload">

/**
 * The dead man's switch's next state. Without a rule and a record it is off. A delivery under way is left alone,
 * so a firing notice is never withdrawn. A switch delivered (completed or failed), or swept by the stream's
 * retention while D1's record says it was due, is resolved once. Then it is armed again at `now + afterMs`,
 * or withdrawn when the heartbeat-late rule was removed from the code.
 */
export function planSwitch(current: SwitchView | undefined, run: Omit<SwitchRun, "slot" | "pauses">): SwitchPlan {
  const { afterMs, now, armedFor } = run
  const idle = { resolve: null, withdraw: null, armAt: null, armedFor: undefined }
  if (afterMs === undefined && armedFor === null) return { step: "off", ...idle }
  if (current && underWay(current, now)) return { step: "firing", ...idle }
  const delivered = current?.state === "completed" || current?.state === "failed"
  const swept = current === undefined && armedFor !== null && armedFor <= now
  let resolve: SwitchPlan["resolve"] = null
  if (delivered || swept) {
    const payload = delivered ? (current.payload as Partial<AlertNotice> | null) : null
    const openedAt = delivered ? (payload?.openedAt ?? current.nextAt) : (armedFor as number)
    // The delivered payload is the firing notice itself; swept (or an operator's, without one), its summary again.
    const cause = typeof payload?.summary === "string" ? payload.summary : switchSummary(openedAt)
    resolve = { openedAt, resolvedAt: Math.max(now, openedAt), cause }
  }
  const step: SwitchStep = resolve ? "resolved" : afterMs === undefined ? "off" : "armed"
  if (afterMs === undefined)
    return {
      step,
      resolve,
      withdraw: current ? { cancel: current.state === "scheduled" } : null,
      armAt: null,
      armedFor: null,
    }
  return { step, resolve, withdraw: null, armAt: now + afterMs, armedFor: now + afterMs }
}

/**
 * The dead man's switch of the heartbeat: a one-shot schedule in the alert stream, due `afterMs` after the
 * database's now at the alerts job's newest run, whose delivery is the `heartbeat-late` notice itself. Each run
 * pushes it back; when the runs stop (the heartbeat stopped, or the alerts job is paused), the stream's alarm
 * delivers it: once, with the stream's retries. planSwitch decides each run; this does its writes.
 */
export async function tendSwitch(stream: StreamClient, consumer: string, run: SwitchRun): Promise<SwitchOutcome> {
  const { afterMs, armedFor } = run
  if (afterMs === undefined && armedFor === null) return { step: "off", armedFor: undefined }
  const plan = planSwitch(await stream.get(SWITCH_ID), run)
  if (plan.resolve) {
    const { openedAt, resolvedAt, cause } = plan.resolve
    const resolved: BareNotice = {
      rule: SWITCH_ID,
      kind: "heartbeat-late",
      subject: "heartbeat",
      status: "resolved",
      summary: await resolvedSummary(run, openedAt),
      cause,
      openedAt,
      resolvedAt,
    }
    const id = noticeId(resolved)
    // Asked first: a notice already delivered would start again if upserted twice.
    if ((await stream.get(id)) === undefined) await stream.upsert({ id, consumer, at: resolvedAt, payload: resolved })
  }
  if (plan.withdraw?.cancel) await stream.cancel(SWITCH_ID)
  if (plan.withdraw) await stream.remove(SWITCH_ID)
  if (plan.armAt !== null && afterMs !== undefined) {
    const firing: BareNotice = {
      rule: SWITCH_ID,
      kind: "heartbeat-late",
      subject: "heartbeat",
      status: "firing",
      summary: switchSummary(plan.armAt),
      openedAt: plan.armAt,
      resolvedAt: null,
    }
    await stream.upsert({ id: SWITCH_ID, consumer, at: plan.armAt, payload: firing })
  }
  return { step: plan.step, armedFor: plan.armedFor }
}

async function resolvedSummary(run: SwitchRun, openedAt: number): Promise<string> {
  const { afterMs } = run
  if (afterMs === undefined) return "the heartbeat-late rule was removed from the code"
  // A pause of the alerts job that ended after the switch was last pushed back is what fired it.
  const paused = (await run.pauses()).find((pause) => (pause.resumedAt ?? 0) >= openedAt - afterMs)
  return paused
    ? `the alerts job runs again: it was paused until ${iso(paused.resumedAt ?? 0)} ("${paused.reason}")`
    : `the heartbeat runs again: the alerts job ran for slot ${iso(run.slot)}`
}
