import { LATE_THRESHOLD_MS } from "../contract/schedule-events.ts"
import type { ScheduleState } from "../contract/states.ts"
import type { StreamSummary } from "../contract/view.ts"
import { dueSince } from "./row.ts"
import type { ScheduleStore } from "./store.ts"

/** A summary reads at most this many rows (plus one index row): its counts say "at least" beyond it. */
export const SUMMARY_ROWS_MAX = 10_000

/** Reads a stream's summary: one bounded scan for the counts, reads of the due index for what is overdue (claims in flight are not). */
export function summarize(store: ScheduleStore, stream: string, now: number): StreamSummary {
  const counts: Record<ScheduleState, number> = { scheduled: 0, completed: 0, cancelled: 0, failed: 0 }
  let retrying = 0
  let total = 0
  let newestError: StreamSummary["newestError"] = null
  // One scan: with exactly one max(), SQLite answers the bare id and last_error from the row holding it.
  const rows = store.exec<{
    state: ScheduleState
    n: number
    retrying: number
    at: number | null
    id: string
    error: string
  }>(
    `SELECT state, count(*) AS n, sum(state = 'scheduled' AND retry_at IS NOT NULL) AS retrying,
            max(CASE WHEN last_error IS NOT NULL AND (state = 'failed' OR retry_at IS NOT NULL) THEN updated_at END) AS at, id, last_error AS error
       FROM (SELECT id, state, retry_at, last_error, updated_at FROM schedules LIMIT ?) GROUP BY state`,
    SUMMARY_ROWS_MAX + 1,
  )
  for (const row of rows) {
    counts[row.state] = row.n
    retrying += row.retrying
    total += row.n
    // Only a failed row or one waiting to retry is failing now: a delivery clears lastError, a cancel keeps it.
    if (row.at !== null && row.at > (newestError?.at ?? -Infinity))
      newestError = { id: row.id, error: row.error, at: row.at }
  }
  const overdueBefore = now - LATE_THRESHOLD_MS
  const { count: overdue, oldest } = store.overdue(overdueBefore, SUMMARY_ROWS_MAX)
  const dueAt = oldest && dueSince(oldest)
  return {
    stream,
    now,
    counts,
    retrying,
    partial: total > SUMMARY_ROWS_MAX,
    overdue,
    oldestOverdue: oldest && dueAt !== undefined ? { id: oldest.id, dueAt, lagMs: now - dueAt } : null,
    newestError,
  }
}
