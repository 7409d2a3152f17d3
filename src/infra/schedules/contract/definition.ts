import type { Duration } from "../../duration.ts"
import type { Json } from "./spec.ts"

/** What a caller upserts: exactly one of at, after, every or cron. */
export interface ScheduleDefinition {
  /** The schedule's id, unique in its stream (NAME); upserting an id again replaces its definition. */
  id: string
  /** The name of the consumer that delivers it. */
  consumer: string
  /** Any JSON of at most 64 KiB and 64 levels, handed to each delivery. */
  payload?: Json
  /** Off by default (unset or null): retries continue, capped at 60 s apart, until success or terminal. */
  maxAttempts?: number | null
  /** Once, at this time: a Date, epoch milliseconds, or ISO 8601 with an offset. */
  at?: Date | number | string
  /** Once, this long after the upsert. */
  after?: Duration
  /** Again and again, this far apart (at least 1 second), the first one this far after the upsert. */
  every?: Duration
  /** On each minute a 5-field cron names, in `timezone`. */
  cron?: string
  /** IANA name for `cron`; default UTC. */
  timezone?: string
  /** `every` and `cron` only: nothing is delivered before this time (same forms as `at`); `every` counts its cadence from it. */
  startAt?: Date | number | string
  /** `every` and `cron` only: the schedule completes after its last occurrence at or before this time (same forms as `at`). */
  endAt?: Date | number | string
  /** `every` and `cron` only: the schedule completes once this many occurrences were delivered (1..1,000,000). */
  times?: number
  /**
   * Each occurrence is delivered up to this much after its time on the cadence, by an offset derived from its
   * idempotency key (the same after a restart); shorter than the gap between occurrences, at most a day.
   */
  jitter?: Duration
}

export const DEFINITION_FIELDS = new Set<string>([
  "id",
  "consumer",
  "payload",
  "maxAttempts",
  "at",
  "after",
  "every",
  "cron",
  "timezone",
  "startAt",
  "endAt",
  "times",
  "jitter",
])
