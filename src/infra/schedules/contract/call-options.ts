import { toMillis } from "../../duration.ts"
import { fail } from "./definition-error.ts"
import { toInstant } from "./instant.ts"
import { LIST_DEFAULT, LIST_MAX, MAX_NOTE_LENGTH, MAX_RETENTION_MS, NAME_RULE } from "./limits.ts"
import { SCHEDULE_ADDRESS } from "./schedule-address.ts"
import { type ScheduleState, STATES } from "./states.ts"

/** A backfill's range: `from` and `to` in any form `at` takes, `from` at or before `to`, `to` not after `now`. */
export function validateBackfillRange(input: unknown, now: number): { from: number; to: number } {
  if (typeof input !== "object" || input === null) fail("range", "must be an object with from and to")
  const { from, to } = input as { from?: unknown; to?: unknown }
  const fromMs = toInstant(from)
  if (fromMs === undefined) fail("from", "must be a Date, epoch milliseconds or an ISO 8601 string with an offset")
  const toMs = toInstant(to)
  if (toMs === undefined) fail("to", "must be a Date, epoch milliseconds or an ISO 8601 string with an offset")
  if ((toMs as number) < (fromMs as number)) fail("to", `is before from (${new Date(fromMs as number).toISOString()})`)
  if ((toMs as number) > now) fail("to", "is in the future: a backfill delivers past occurrences only")
  return { from: fromMs as number, to: toMs as number }
}

/** A cancel's optional reason: a string, cut to MAX_NOTE_LENGTH; empty or absent is none. */
export function validateReason(reason: unknown): string | null {
  if (reason === undefined || reason === null || reason === "") return null
  if (typeof reason !== "string") fail("reason", "must be a string")
  const text = reason as string
  return text.length > MAX_NOTE_LENGTH ? `${text.slice(0, MAX_NOTE_LENGTH - 1)}…` : text
}

/** A page size: LIST_DEFAULT when absent, else an integer 1..LIST_MAX. */
function pageLimit(limit: unknown): number {
  if (limit === undefined) return LIST_DEFAULT
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) {
    fail("limit", `must be an integer from 1 to ${LIST_MAX}`)
  }
  return limit as number
}

/** A page of a stream's schedules: in one state, at most `limit`, after the id `cursor`. */
export interface ListOptions {
  /** Only schedules in this state; all when unset. */
  state?: ScheduleState
  /** At most this many (1..500, default 50). */
  limit?: number
  /** The id after which the page starts: the previous page's `cursor`. */
  cursor?: string
}

/** A list call's options, checked: a known state, a page size, a cursor that is a schedule id. */
export function validateListOptions(options: ListOptions): Required<Pick<ListOptions, "limit">> & ListOptions {
  if (options.state !== undefined && !STATES.includes(options.state))
    fail("state", `must be one of ${STATES.join(", ")}`)
  if (options.cursor !== undefined && !(typeof options.cursor === "string" && SCHEDULE_ADDRESS.test(options.cursor))) {
    fail("cursor", "is not a schedule id")
  }
  return { ...options, limit: pageLimit(options.limit) }
}

/** A page of a stream's event log, newest first: of one schedule, at most `limit`, before the event `before`. */
export interface EventsOptions {
  /** Only this schedule's events; every schedule's when unset. */
  scheduleId?: string
  /** At most this many (1..500, default 50). */
  limit?: number
  /** Only events older than this seq: the last seq of the previous page. */
  before?: number
}

/** An events call's options, checked: a schedule id, a page size, an event seq to page before. */
export function validateEventsOptions(options: EventsOptions): Required<Pick<EventsOptions, "limit">> & EventsOptions {
  // A backfill row 0.2.0 named past 128 characters is still addressable (schedule-address.ts).
  if (
    options.scheduleId !== undefined &&
    !(typeof options.scheduleId === "string" && SCHEDULE_ADDRESS.test(options.scheduleId))
  )
    fail("id", NAME_RULE)
  if (options.before !== undefined && !(Number.isSafeInteger(options.before) && options.before > 0)) {
    fail("before", "must be an event seq, a positive integer")
  }
  return { ...options, limit: pageLimit(options.limit) }
}

/** A stream's retention window in milliseconds: 0 (keep no finished schedule) up to MAX_RETENTION_MS. */
export function validateRetention(value: unknown): number {
  const ms = toMillis(value)
  if (ms === undefined || ms > MAX_RETENTION_MS) {
    fail("retention", 'must be milliseconds or a string such as "7 days", from 0 up to 366 days')
  }
  return ms as number
}
