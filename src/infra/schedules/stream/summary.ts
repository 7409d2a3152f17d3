import type { ScheduleState } from "../client/contract.ts"
import { LATE_THRESHOLD_MS } from "../client/events.ts"
import type { StreamSummary } from "../client/view.ts"
import type { ScheduleStore } from "./store.ts"

/** A summary reads at most this many rows (plus one index row): its counts say "at least" beyond it. */
export const SUMMARY_ROWS_MAX = 10_000

/** Reads a stream's summary: one bounded scan for the counts, two reads of the due index for what is overdue. */
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
  const [oldest] = store.exec<{ id: string; eligible_at: number }>(
    "SELECT id, eligible_at FROM schedules WHERE state = 'scheduled' AND eligible_at < ? ORDER BY eligible_at, id LIMIT 1",
    overdueBefore,
  )
  const overdue = oldest
    ? (store.exec<{ n: number }>(
        "SELECT count(*) AS n FROM (SELECT 1 FROM schedules WHERE state = 'scheduled' AND eligible_at < ? LIMIT ?)",
        overdueBefore,
        SUMMARY_ROWS_MAX,
      )[0]?.n ?? 0)
    : 0
  return {
    stream,
    now,
    counts,
    retrying,
    partial: total > SUMMARY_ROWS_MAX,
    overdue,
    oldestOverdue: oldest ? { id: oldest.id, dueAt: oldest.eligible_at, lagMs: now - oldest.eligible_at } : null,
  }
}
