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
const underWay = (view: ScheduleView, now: number) =>
  // An attempt (claimed, or retrying) counts in `attempts` from its claim on.
  view.state === "scheduled" && (view.nextAt <= now || view.attempts > 0)

/**
 * The dead man's switch of the heartbeat: a one-shot schedule in the alert stream, due `afterMs` after the
 * database's now at the alerts job's newest run, whose delivery is the `heartbeat-late` notice itself. Each run
 * pushes it back; when the runs stop (the heartbeat stopped, or the alerts job is paused), the stream's alarm
 * delivers it: once, with the stream's retries. A run that finds it delivered (completed or failed, or swept by
 * the stream's retention while D1's record says it was due) sends the resolved notice once, then arms it again.
 * Without a heartbeat-late rule the switch is disarmed: removed, and resolved first if it had fired. A delivery
 * under way is left alone, so a firing notice is never withdrawn; the next run resolves it.
 */
export async function tendSwitch(stream: StreamClient, consumer: string, run: SwitchRun): Promise<SwitchOutcome> {
  const { afterMs, now, armedFor } = run
  if (afterMs === undefined && armedFor === null) return { step: "off", armedFor: undefined }
  const current = await stream.get(SWITCH_ID)
  if (current && underWay(current, now)) return { step: "firing", armedFor: undefined }
  const delivered = current?.state === "completed" || current?.state === "failed"
  const swept = current === undefined && armedFor !== null && armedFor <= now
  let step: SwitchStep = afterMs === undefined ? "off" : "armed"
  if (delivered || swept) {
    const openedAt = delivered ? ((current.payload as AlertNotice).openedAt ?? current.nextAt) : (armedFor as number)
    const resolvedAt = Math.max(now, openedAt)
    const resolved: BareNotice = {
      rule: SWITCH_ID,
      kind: "heartbeat-late",
      subject: "heartbeat",
      status: "resolved",
      summary: await resolvedSummary(run, openedAt),
      openedAt,
      resolvedAt,
    }
    const id = noticeId(resolved)
    // Asked first: a notice already delivered would start again if upserted twice.
    if ((await stream.get(id)) === undefined) await stream.upsert({ id, consumer, at: resolvedAt, payload: resolved })
    step = "resolved"
  }
  if (afterMs === undefined) {
    if (current?.state === "scheduled") await stream.cancel(SWITCH_ID)
    if (current) await stream.remove(SWITCH_ID)
    return { step, armedFor: null }
  }
  const at = now + afterMs
  const firing: BareNotice = {
    rule: SWITCH_ID,
    kind: "heartbeat-late",
    subject: "heartbeat",
    status: "firing",
    summary: `the heartbeat is late or the alerts job is paused: it last ran for slot ${iso(run.slot)}, and nothing ran it for ${afterMs / 60_000} minutes`,
    openedAt: at,
    resolvedAt: null,
  }
  await stream.upsert({ id: SWITCH_ID, consumer, at, payload: firing })
  return { step, armedFor: at }
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
