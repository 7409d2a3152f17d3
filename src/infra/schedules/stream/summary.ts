import { LATE_THRESHOLD_MS } from "../contract/schedule-events.ts"
import type { ScheduleState } from "../contract/states.ts"
import type { StreamSummary } from "../contract/view.ts"
import { eligibleAt } from "./row.ts"
import type { ScheduleStore } from "./store.ts"

/** A summary reads at most this many rows (plus one index row): its counts say "at least" beyond it. */
export const SUMMARY_ROWS_MAX = 10_000

/** Reads a stream's summary: one bounded scan for the counts, reads of the due index for what is overdue (claims in flight are not). */
export function summarize(store: ScheduleStore, stream: string, now: number): StreamSummary {
  const counts: Record<ScheduleState, number> = { scheduled: 0, completed: 0, cancelled: 0, failed: 0 }
  let retrying = 0
  let total = 0
  const rows = store.exec<{ state: ScheduleState; n: number; retrying: number }>(
    `SELECT state, count(*) AS n, sum(state = 'scheduled' AND retry_at IS NOT NULL) AS retrying
       FROM (SELECT state, retry_at FROM schedules LIMIT ?) GROUP BY state`,
    SUMMARY_ROWS_MAX + 1,
  )
  for (const row of rows) {
    counts[row.state] = row.n
    retrying += row.retrying
    total += row.n
  }
  const overdueBefore = now - LATE_THRESHOLD_MS
  const { count: overdue, oldest } = store.overdue(overdueBefore, SUMMARY_ROWS_MAX)
  const dueAt = oldest && eligibleAt(oldest)
  return {
    stream,
    now,
    counts,
    retrying,
    partial: total > SUMMARY_ROWS_MAX,
    overdue,
    oldestOverdue: oldest && dueAt !== undefined ? { id: oldest.id, dueAt, lagMs: now - dueAt } : null,
  }
}
