import type { Json, Timing } from "./spec.ts"
import type { ScheduleState } from "./states.ts"

/** A schedule as clients and the admin API see it; times are epoch milliseconds. */
export interface ScheduleView {
  /** The stream's name. */
  stream: string
  /** The schedule's id within its stream. */
  id: string
  /** The name of the consumer that delivers it. */
  consumer: string
  /** When it is due. */
  timing: Timing
  /** Its payload, as upserted. */
  payload: Json
  /** The most attempts an occurrence gets before the schedule fails; null retries until terminal. */
  maxAttempts: number | null
  /** Where it is in its life: scheduled, completed, cancelled or failed. */
  state: ScheduleState
  /** The 1-based count of its due times so far, kept through retries. */
  occurrence: number
  /**
   * The key occurrence `occurrence` is delivered with, `schedule:<stream>/<id>@<incarnation>:<occurrence>`:
   * find its consumer's record or its Workflow instance by it. Another row of the same id has other keys.
   */
  idempotencyKey: string
  /** When the current occurrence is due. */
  nextAt: number
  /** When a failed attempt's retry is due, or null. */
  retryAt: number | null
  /** Until when an attempt in flight holds its delivery claim, or null. */
  claimUntil: number | null
  /** When it may next be delivered: the latest of nextAt, retryAt and claimUntil. */
  eligibleAt: number
  /** The attempts started at the current occurrence: each delivery claim counts one. */
  attempts: number
  /** The last failed attempt's reason, or null. */
  lastError: string | null
  /** When it was first upserted. */
  createdAt: number
  /** When its row was last written. */
  updatedAt: number
  /**
   * Where the current occurrence sits on the cadence: `nextAt` is this plus the jitter's offset (or now,
   * after a trigger). The two differ only with jitter or after a trigger.
   */
  cadenceAt: number
  /** Nothing is delivered before this time (every and cron), or null. */
  startAt: number | null
  /** The schedule completes after its last occurrence at or before this time, or null. */
  endAt: number | null
  /** It completes once this many occurrences were delivered, or null (no limit). */
  times: number | null
  /** Occurrences delivered so far (a backfill's do not count). */
  delivered: number
  /** The bound of each occurrence's delivery offset in ms, or null. */
  jitterMs: number | null
  /** The reason given when it was cancelled, while it stays cancelled; null otherwise. */
  cancelReason: string | null
  /** For an occurrence a backfill created, the id of the recurring schedule it belongs to; null otherwise. */
  backfillOf: string | null
}

/** What a backfill created (or, with `dryRun`, would create): one one-shot schedule per past occurrence. */
export interface BackfillReport {
  /** The recurring schedule backfilled. */
  scheduleId: string
  /** The range's first moment asked for, in epoch milliseconds. */
  from: number
  /** The range's last moment asked for, in epoch milliseconds. */
  to: number
  /** How many past occurrences the range names (at most MAX_BACKFILL): each is delivered once more. */
  count: number
  /** The first backfilled occurrence's time on the cadence, or null when the range names none. */
  firstAt: number | null
  /** The last backfilled occurrence's time on the cadence, or null when the range names none. */
  lastAt: number | null
  /** True when nothing was written: a preview. */
  dryRun: boolean
  /**
   * The ids of the schedules created, `<id>~backfill-<run>-<time>` (at most 128 characters: a long id is cut and
   * followed by `~` and a hash of it); each is delivered with its own key,
   * `schedule:<stream>/<id>~backfill-<run>-<time>@<incarnation>:1`, never a live occurrence's.
   */
  ids: string[]
}

/** A stream at a glance: how many schedules in each state, how many retrying, and the one furthest behind. */
export interface StreamSummary {
  /** The stream's name. */
  stream: string
  /** The stream's clock when it answered. */
  now: number
  /** How many schedules are in each state. */
  counts: Record<ScheduleState, number>
  /** Scheduled rows waiting for a retry after a failed attempt. */
  retrying: number
  /** True when the stream holds more than SUMMARY_ROWS_MAX schedules: the counts are of the first ones by id. */
  partial: boolean
  /** Scheduled rows due more than LATE_THRESHOLD_MS ago and not being delivered (at most SUMMARY_ROWS_MAX). */
  overdue: number
  /** The overdue schedule due longest ago, or null. */
  oldestOverdue: { id: string; dueAt: number; lagMs: number } | null
  /**
   * The schedule whose attempt failed most recently and that has not delivered since (retrying, failed, or a
   * skipped occurrence's error), its error, and when the row last changed; null when none is failing.
   */
  newestError: { id: string; error: string; at: number } | null
}
