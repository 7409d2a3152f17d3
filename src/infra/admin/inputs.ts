import { z } from "zod"
import { JOB_NAME } from "../jobs/definition.ts"
import { LIST_MAX, NAME, NAME_RULE, STATES } from "../schedules/index.ts"

const name = z.string().regex(NAME, NAME_RULE)
const limit = z.coerce.number().int().min(1).max(LIST_MAX).optional()

export const jobParam = z.object({ name: z.string().regex(JOB_NAME, "must match [a-z0-9][a-z0-9._-]{0,99}") })
export const leaseParam = jobParam
export const streamParam = z.object({ stream: name })
export const scheduleParam = z.object({ stream: name, id: name })

export const streamsQuery = z.object({ limit, cursor: name.optional() })
export const schedulesQuery = z.object({ state: z.enum(STATES).optional(), limit, cursor: name.optional() })
export const eventsQuery = z.object({
  limit,
  before: z.coerce.number().int().positive().optional(),
  scheduleId: name.optional(),
})

const duration = z.union([z.number(), z.string().max(64)])

/** A schedule definition without its id (the path names it); the stream checks the rest as the client's upsert does. */
export const scheduleBody = z.strictObject({
  id: z.string().optional(),
  consumer: z.string().max(128),
  // Any JSON: validateDefinition checks it without recursion (z.json() recurses and overflows on deep nesting).
  payload: z.unknown().optional(),
  maxAttempts: z.number().optional(),
  at: z.union([z.number(), z.string().max(64)]).optional(),
  after: duration.optional(),
  every: duration.optional(),
  cron: z.string().max(256).optional(),
  timezone: z.string().max(64).optional(),
})

/** The largest PUT body: a 64 KiB payload and its definition's other fields. */
export const MAX_BODY_BYTES = 80 * 1024
