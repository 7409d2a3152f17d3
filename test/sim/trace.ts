import { T0 } from "../support/streams.ts"
import type { StepRecord } from "./invariants.ts"
import { describe, type Step } from "./steps.ts"

/** Times in a trace: seconds from T0. */
const at = (ms: number | null | undefined) => (ms === null || ms === undefined ? "-" : `${(ms - T0) / 1_000}s`)

/** One step of a run as a person reads it: the step, then the clock, rows, events and alarm after it. */
export function traceLine(step: Step, r: StepRecord): string {
  const rows = [...r.post.values()].map((row) => {
    const retry = row.retry_at === null ? "" : ` retry ${at(row.retry_at)}`
    const claim = row.claim_until === null ? "" : ` claimed to ${at(row.claim_until)}`
    return `${row.id} ${row.state} #${row.occurrence} due ${at(row.next_at)} a${row.attempts}${retry}${claim}`
  })
  const events = r.events.map((e) => `${e.type.slice(9)} ${e.schedule_id}#${e.data.occurrence ?? ""}`)
  return [
    describe(step),
    `        now ${at(r.now)}, alarm ${at(r.alarm)}${r.faultFired ? ", fault fired" : ""}`,
    `        rows: ${rows.join("; ") || "none"}`,
    ...(events.length ? [`        events: ${events.join(", ")}`] : []),
  ].join("\n")
}
