import * as z from "zod/mini"
import { JOB_NAME } from "../jobs/contract/definition.ts"
import { HISTORY_DAYS_MAX } from "../jobs/history/history.ts"
import { PAUSE_REASON_MAX } from "../jobs/protocol/pauses.ts"
import { LIST_MAX, MAX_NOTE_LENGTH, MAX_PAYLOAD_BYTES, NAME, NAME_RULE } from "../schedules/contract/limits.ts"
import { SCHEDULE_ADDRESS } from "../schedules/contract/schedule-address.ts"
import { STATES } from "../schedules/contract/states.ts"

const name = z.string().check(z.regex(NAME, NAME_RULE))
const limit = z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(LIST_MAX))))

export const jobParam = z.object({
  name: z.string().check(z.regex(JOB_NAME, "must match [a-z0-9][a-z0-9._-]{0,99}")),
})
export const leaseParam = jobParam
/** Why a job is paused: shown beside it in health and the dashboard. */
export const pauseBody = z.strictObject({
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(PAUSE_REASON_MAX)),
})
/** `force=true` releases a lease still within its run's timeout. */
export const releaseQuery = z.object({ force: z.optional(z.enum(["true", "false"])) })
export const streamParam = z.object({ stream: name })
export const jobHistoryQuery = z.object({
  days: z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(HISTORY_DAYS_MAX)))),
})
export const streamHistoryQuery = z.object({ range: z.optional(z.enum(["day", "month"])) })
/** A schedule's id: a NAME, or a backfill row's id 0.2.0 wrote past 128 characters (schedule-address.ts). */
const scheduleId = z.string().check(z.regex(SCHEDULE_ADDRESS, NAME_RULE))
export const scheduleParam = z.object({ stream: name, id: scheduleId })

export const streamsQuery = z.object({ limit, cursor: z.optional(name) })
export const schedulesQuery = z.object({ state: z.optional(z.enum(STATES)), limit, cursor: z.optional(scheduleId) })
export const eventsQuery = z.object({
  limit,
  before: z.optional(z.pipe(z.coerce.number(), z.int().check(z.positive()))),
  scheduleId: z.optional(scheduleId),
})

// The stream checks what is z.unknown() here (one rule for the client and the route); the document still types it
// (scripts/openapi: an unknown with no type of its own is any JSON value).
const NULLABLE_INT = ["integer", "null"]

const text = (max: number) => z.string().check(z.maxLength(max))
const duration = z.union([z.number(), text(64)]).check(z.describe('ms or "10 minutes"'))

/** A schedule definition without its id (the path names it); the stream checks the rest as the client's upsert does. */
export const scheduleBody = z.strictObject({
  id: z.optional(z.string().check(z.describe("the path's id, if given"))),
  consumer: text(128),
  // Any JSON: validateDefinition checks it without recursion (a recursive JSON schema overflows on deep nesting).
  payload: z.optional(z.unknown().check(z.describe(`any JSON, at most ${MAX_PAYLOAD_BYTES} bytes and 64 levels deep`))),
  // validateDefinition's rule, the client's: one rule for both (null is unset).
  maxAttempts: z.optional(
    z
      .unknown()
      .check(z.meta({ type: NULLABLE_INT, minimum: 1, maximum: 1000, description: "null: retry until terminal" })),
  ),
  at: z.optional(z.union([z.number(), text(64)]).check(z.describe("epoch ms or ISO 8601 with offset"))),
  after: z.optional(duration),
  every: z.optional(duration),
  cron: z.optional(text(256).check(z.describe("5 fields"))),
  timezone: z.optional(text(64).check(z.describe("IANA name, for cron (default UTC)"))),
  startAt: z.optional(
    z.union([z.number(), text(64)]).check(z.describe("every and cron: epoch ms or ISO 8601 with offset")),
  ),
  endAt: z.optional(
    z.union([z.number(), text(64)]).check(z.describe("every and cron: epoch ms or ISO 8601 with offset")),
  ),
  // validateDefinition's rule, the client's, as for maxAttempts.
  times: z.optional(
    z
      .unknown()
      .check(z.meta({ type: NULLABLE_INT, minimum: 1, maximum: 1e6, description: "every and cron; null: no limit" })),
  ),
  jitter: z.optional(duration),
})

/** A cancel's optional body: the reason kept on the schedule (the stream checks it as the client's cancel does). */
export const cancelBody = z.strictObject({
  reason: z.optional(z.unknown().check(z.meta({ type: "string", maxLength: MAX_NOTE_LENGTH }))),
})

/** A backfill's body: a past range, and whether it only counts (the stream checks it as the client's backfill does). */
export const backfillBody = z.strictObject({
  from: z.union([z.number(), text(64)]).check(z.describe("epoch ms or ISO 8601 with offset")),
  to: z.union([z.number(), text(64)]).check(z.describe("epoch ms or ISO 8601 with offset, not in the future")),
  dryRun: z.optional(z.boolean().check(z.describe("only count the occurrences; write nothing"))),
})

/** The largest PUT body: a 64 KiB payload and its definition's other fields. */
export const MAX_BODY_BYTES = 80 * 1024
