import type { ScheduleSpec, Timing } from "../contract/spec.ts"
import type { ScheduleState } from "../contract/states.ts"
import type { ScheduleView } from "../contract/view.ts"
import { idempotencyKey } from "./idempotency-key.ts"

/** One schedule as the stream stores it. Times are epoch milliseconds. */
export interface ScheduleRow {
  id: string
  consumer: string
  kind: Timing["kind"]
  /** `at`: the instant; `after`/`every`: the interval. */
  atMs: number | null
  intervalMs: number | null
  cron: string | null
  timezone: string | null
  payload: string
  maxAttempts: number | null
  state: ScheduleState
  /** 1-based number of the occurrence now due; it survives retries, crashes and restarts. */
  occurrence: number
  /** When the current occurrence is due for delivery. */
  nextAt: number
  /** Where the current occurrence sits on the cadence; differs from nextAt only after a trigger. */
  cadenceAt: number
  retryAt: number | null
  claimUntil: number | null
  claimToken: string | null
  /** Attempts made at the current occurrence, counted at claim so a lost lease counts too. */
  attempts: number
  lastError: string | null
  createdAt: number
  updatedAt: number
  /** When the row left `scheduled` (completed, cancelled or failed); retention counts from it. */
  finishedAt: number | null
  /**
   * Drawn when the row is created and kept for its life (upserts, restarts, resumes), part of every
   * idempotency key (idempotency-key.ts); null for a row created before schema version 4.
   */
  incarnation: number | null
  /** The window (epoch ms), recurring rows only: nothing before startAt, nothing on the cadence after endAt. */
  startAt: number | null
  endAt: number | null
  /** The number of occurrences after whose delivery the schedule completes (null: no limit). */
  times: number | null
  /** Occurrences delivered so far: kept through retries, restarts, resumes and upserts (schema version 7 on). */
  delivered: number
  /** The jitter's bound: nextAt is cadenceAt plus an offset below it, drawn from the occurrence's key (jitter.ts). */
  jitterMs: number | null
  /** Why the schedule was last cancelled, while it stays cancelled. */
  cancelReason: string | null
  /** For an occurrence a backfill created: the id of the recurring schedule it belongs to. */
  backfillOf: string | null
}

export const eligibleAt = (row: Pick<ScheduleRow, "nextAt" | "retryAt" | "claimUntil">) =>
  Math.max(row.nextAt, row.retryAt ?? 0, row.claimUntil ?? 0)

/** Since when a row has been due: a backfill's occurrence is due in the past on purpose, so no earlier than its creation. */
export const dueSince = (row: Pick<ScheduleRow, "nextAt" | "retryAt" | "claimUntil" | "backfillOf" | "createdAt">) =>
  row.backfillOf === null ? eligibleAt(row) : Math.max(eligibleAt(row), row.createdAt)

export function timingOf(row: ScheduleRow): Timing {
  switch (row.kind) {
    case "at":
      return { kind: "at", atMs: row.atMs as number }
    case "after":
      return { kind: "after", afterMs: row.intervalMs as number }
    case "every":
      return { kind: "every", everyMs: row.intervalMs as number }
    case "cron":
      return { kind: "cron", cron: row.cron as string, timezone: row.timezone as string }
  }
}

export const specOf = (row: ScheduleRow): ScheduleSpec => ({
  id: row.id,
  consumer: row.consumer,
  payload: row.payload,
  maxAttempts: row.maxAttempts,
  timing: timingOf(row),
  startAt: row.startAt,
  endAt: row.endAt,
  times: row.times,
  jitterMs: row.jitterMs,
})

export const timingColumns = (timing: Timing) => ({
  kind: timing.kind,
  atMs: timing.kind === "at" ? timing.atMs : null,
  intervalMs: timing.kind === "after" ? timing.afterMs : timing.kind === "every" ? timing.everyMs : null,
  cron: timing.kind === "cron" ? timing.cron : null,
  timezone: timing.kind === "cron" ? timing.timezone : null,
})

export const isRecurring = (row: Pick<ScheduleRow, "kind">) => row.kind === "every" || row.kind === "cron"

/** A row as callers see it (a stream's RPC answers, the client, admin). */
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
  cadenceAt: row.cadenceAt,
  startAt: row.startAt,
  endAt: row.endAt,
  times: row.times,
  delivered: row.delivered,
  jitterMs: row.jitterMs,
  cancelReason: row.cancelReason,
  backfillOf: row.backfillOf,
})
