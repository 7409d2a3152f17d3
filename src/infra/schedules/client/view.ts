import { idempotencyKey } from "../stream/idempotency-key.ts"
import { eligibleAt, type ScheduleRow, timingOf } from "../stream/row.ts"
import type { Json, ScheduleState, Timing } from "./contract.ts"

/** A schedule as clients and the admin API see it; times are epoch milliseconds. */
export interface ScheduleView {
  stream: string
  id: string
  consumer: string
  timing: Timing
  payload: Json
  maxAttempts: number | null
  state: ScheduleState
  occurrence: number
  /**
   * The key occurrence `occurrence` is delivered with, `schedule:<stream>/<id>@<incarnation>:<occurrence>`:
   * find its consumer's record or its Workflow instance by it. Another row of the same id has other keys.
   */
  idempotencyKey: string
  nextAt: number
  retryAt: number | null
  claimUntil: number | null
  eligibleAt: number
  attempts: number
  lastError: string | null
  createdAt: number
  updatedAt: number
}

/** A stream at a glance: how many schedules in each state, how many retrying, and the one furthest behind. */
export interface StreamSummary {
  stream: string
  now: number
  counts: Record<ScheduleState, number>
  /** Scheduled rows waiting for a retry after a failed attempt. */
  retrying: number
  /** True when the stream holds more than SUMMARY_ROWS_MAX schedules: the counts are of the first ones by id. */
  partial: boolean
  /** Scheduled rows due more than LATE_THRESHOLD_MS ago and not being delivered (at most SUMMARY_ROWS_MAX). */
  overdue: number
  /** The overdue schedule due longest ago, or null. */
  oldestOverdue: { id: string; dueAt: number; lagMs: number } | null
}

export const viewOf = (stream: string, row: ScheduleRow): ScheduleView => ({
  stream,
  id: row.id,
  consumer: row.consumer,
  timing: timingOf(row),
  payload: JSON.parse(row.payload),
  maxAttempts: row.maxAttempts,
  state: row.state,
  occurrence: row.occurrence,
  idempotencyKey: idempotencyKey(stream, row),
  nextAt: row.nextAt,
  retryAt: row.retryAt,
  claimUntil: row.claimUntil,
  eligibleAt: eligibleAt(row),
  attempts: row.attempts,
  lastError: row.lastError,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
})
