import type { StreamClient } from "../schedules/client/stream-client.ts"
import type { AlertNotice, BareNotice } from "./notice.ts"
import { noticeId } from "./notice.ts"

/** The switch's schedule id in the alert stream. */
export const SWITCH_ID = "heartbeat-late"

const iso = (ms: number) => new Date(ms).toISOString()

/** What one run of the alerts job did with the switch. */
export type SwitchStep = "armed" | "firing" | "resolved"

/**
 * The dead man's switch of the heartbeat: a one-shot schedule in the alert stream, due `afterMs` after the
 * alerts job's newest run, whose delivery is the `heartbeat-late` notice itself. Each run of the alerts job
 * (which only the heartbeat runs) pushes it back; when the heartbeat stops, nothing does, and the stream's
 * Durable Object alarm delivers it: once, with the stream's retries. A run that finds it delivered (completed,
 * or failed by a terminal answer) sends the resolved notice first, then arms it again (a new occurrence, a
 * new key). While its delivery is due or retrying it is left alone, so the firing notice is never withdrawn.
 */
export async function tendSwitch(
  stream: StreamClient,
  consumer: string,
  afterMs: number,
  now: number,
): Promise<SwitchStep> {
  const current = await stream.get(SWITCH_ID)
  if (current?.state === "scheduled" && current.nextAt <= now) return "firing"
  let step: SwitchStep = "armed"
  if (current && (current.state === "completed" || current.state === "failed")) {
    const fired = current.payload as AlertNotice
    const resolved: AlertNotice = {
      ...fired,
      status: "resolved",
      summary: `the heartbeat runs again: the alerts job ran for slot ${iso(now)}`,
      resolvedAt: now,
    }
    const id = noticeId(resolved)
    // Asked first: a notice already delivered would start again if upserted twice.
    if ((await stream.get(id)) === undefined) await stream.upsert({ id, consumer, at: now, payload: resolved })
    step = "resolved"
  }
  const at = now + afterMs
  const firing: BareNotice = {
    rule: SWITCH_ID,
    kind: "heartbeat-late",
    subject: "heartbeat",
    status: "firing",
    summary: `the heartbeat is late: the alerts job last ran for slot ${iso(now)}, and nothing ran it for ${afterMs / 60_000} minutes`,
    openedAt: at,
    resolvedAt: null,
  }
  await stream.upsert({ id: SWITCH_ID, consumer, at, payload: firing })
  return step
}
