import { logLine } from "../log.ts"
import * as core from "./core.ts"
import type { ScheduleStore } from "./store.ts"

/**
 * The settlement (ADR 0202): writes an attempt's result in one transaction, only if the fence
 * still holds (state, token, unexpired lease, occurrence, due time), advancing the row as stored
 * now (an upsert while the claim was out may have changed its timing or rules); only the columns
 * the result changes are written. A stale result writes nothing and emits nothing. `fenceRow` is a
 * test's sabotage of what the fence reads.
 */
export function settle(
  store: ScheduleStore,
  stream: string,
  claim: core.Claim,
  result: core.DeliveryResult,
  now: number,
  fenceRow: (row: ReturnType<ScheduleStore["get"]>) => ReturnType<ScheduleStore["get"]> = (row) => row,
): core.Transition {
  const transition = store.transaction(() => {
    const row = fenceRow(store.get(claim.id))
    const settled = core.settle(row, claim, result, now)
    if (core.changed(settled)) store.apply(settled, now, row)
    return settled
  })
  // A delivery is counted in its tick's one line (and its schedule/fired event); anything else gets a line of its own.
  if (result.status === "delivered" && core.changed(transition)) return transition
  const row = transition.row
  logLine("warn", "schedule.delivery", {
    stream,
    schedule: claim.id,
    occurrence: claim.occurrence,
    attempt: claim.attempts,
    outcome: core.changed(transition) ? result.status : "stale",
    ...(result.status === "delivered" ? {} : { reason: result.reason }),
    ...(row?.state === "scheduled" ? { nextAt: row.nextAt, retryAt: row.retryAt } : { state: row?.state }),
  })
  return transition
}
