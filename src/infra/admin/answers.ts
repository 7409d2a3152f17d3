/**
 * The JSON the admin API answers, as zod/mini schemas: json.ts derives the answer types from them
 * and /openapi.json their JSON Schemas, so the document and the handlers' types cannot differ.
 */
import * as z from "zod/mini"
import { STATES } from "../schedules/client/states.ts"

/** Components of the document by name: each schema registered here is one `#/components/schemas/<id>`. */
export const components = z.registry<{ id: string }>()

const nullable = <T extends z.core.SomeType>(schema: T) => z.nullable(schema)
const int = z.int()

/** Any JSON value: a schedule's payload. */
export const json = z.json().register(components, { id: "Json" })

/** RFC 9457 problem details; every error answer is `application/problem+json` of this shape. */
export const problemSchema = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: int,
    detail: z.string(),
    /** The invalid or unknown field, when one is to blame. */
    field: z.optional(z.string()),
  })
  .register(components, { id: "Problem" })

export const leaseStatusSchema = z.enum(["free", "held", "expired"])
export const runOutcome = z.enum(["ran", "failed", "timed-out"])

export const runRecord = z
  .object({
    slot: int,
    runId: z.string(),
    outcome: runOutcome,
    ms: z.number(),
    finishedAt: int,
    error: nullable(z.string()),
  })
  .register(components, { id: "RunRecord" })

export const slotEntry = z
  .object({
    slot: int,
    status: z.enum(["ran", "failed", "timed-out", "running", "unrecorded", "missed"]),
    run: nullable(runRecord),
  })
  .register(components, { id: "SlotEntry" })

export const leaseView = z
  .object({
    lastSlot: nullable(int),
    leaseUntil: nullable(int),
    holder: nullable(z.string()),
    status: leaseStatusSchema,
  })
  .register(components, { id: "LeaseView" })

export const jobView = z
  .object({
    name: z.string(),
    cron: z.string(),
    exclusive: z.boolean(),
    timeoutMs: z.number(),
    leaseMs: z.number(),
    nextSlot: nullable(int),
    lease: leaseView,
    lastRun: nullable(runRecord),
    slots: z.array(slotEntry),
  })
  .register(components, { id: "JobView" })

export const heartbeatSchema = z.object({
  status: z.enum(["alive", "late", "ahead", "unknown"]),
  lastFiredAt: nullable(int),
  missedSlot: nullable(int),
  aheadSlot: nullable(int),
})

export const watchSummary = z.object({
  overdue: int,
  nudged: int,
  failed: int,
  mostOverdue: nullable(z.object({ stream: z.string(), lagMs: z.number() })),
})

export const healthView = z
  .object({
    now: int,
    ok: z.boolean(),
    heartbeat: z.extend(heartbeatSchema, { ageMs: nullable(z.number()) }),
    watchdog: z.object({
      job: z.string(),
      declared: z.boolean(),
      lastRun: nullable(runRecord),
      summary: nullable(watchSummary),
    }),
    retrying: z.object({ schedules: int, streamsAsked: int, unanswered: int, complete: z.boolean() }),
  })
  .register(components, { id: "HealthView" })

export const timing = z
  .union([
    z.object({ kind: z.literal("at"), atMs: z.number() }),
    z.object({ kind: z.literal("after"), afterMs: z.number() }),
    z.object({ kind: z.literal("every"), everyMs: z.number() }),
    z.object({ kind: z.literal("cron"), cron: z.string(), timezone: z.string() }),
  ])
  .register(components, { id: "Timing" })

const scheduleState = z.enum(STATES)

export const scheduleView = z
  .object({
    stream: z.string(),
    id: z.string(),
    consumer: z.string(),
    timing,
    payload: json,
    maxAttempts: nullable(int),
    state: scheduleState,
    occurrence: int,
    idempotencyKey: z.string(),
    nextAt: z.number(),
    retryAt: nullable(z.number()),
    claimUntil: nullable(z.number()),
    eligibleAt: z.number(),
    attempts: int,
    lastError: nullable(z.string()),
    createdAt: z.number(),
    updatedAt: z.number(),
  })
  .register(components, { id: "ScheduleView" })

export const scheduleEvent = z
  .object({
    type: z.enum([
      "schedule/set",
      "schedule/cancelled",
      "schedule/fired",
      "schedule/late",
      "schedule/failed",
      "schedule/removed",
    ]),
    scheduleId: z.string(),
    data: z.record(z.string(), z.unknown()),
    seq: int,
    at: z.number(),
  })
  .register(components, { id: "ScheduleEvent" })

export const streamSummary = z
  .object({
    stream: z.string(),
    now: z.number(),
    // Every state named as a property: a record over an enum documents required keys it never defines.
    counts: z.object({ scheduled: int, completed: int, cancelled: int, failed: int }),
    retrying: int,
    partial: z.boolean(),
    overdue: int,
    oldestOverdue: nullable(z.object({ id: z.string(), dueAt: z.number(), lagMs: z.number() })),
  })
  .register(components, { id: "StreamSummary" })

const ms = nullable(z.number())

export const hourPoint = z.object({
  hour: int,
  due: int,
  ran: int,
  failed: int,
  timedOut: int,
  skipped: int,
  missed: int,
  medianMs: ms,
  maxMs: ms,
})

export const jobHistory = z
  .object({ job: z.string(), now: int, days: int, knownSince: nullable(int), hours: z.array(hourPoint) })
  .register(components, { id: "JobHistory" })

export const deliveryPoint = z.object({
  at: int,
  delivered: int,
  retried: int,
  failed: int,
  lateMedianMs: ms,
  lateP99Ms: ms,
  lateMaxMs: ms,
})

export const streamHistory = z
  .object({
    stream: z.string(),
    now: z.number(),
    range: z.enum(["day", "month"]),
    stepMs: int,
    points: z.array(deliveryPoint),
  })
  .register(components, { id: "StreamHistory" })

const scheduleAnswer = z.object({ schedule: scheduleView }).register(components, { id: "ScheduleAnswer" })

/** What each route answers with 200. */
export const ANSWERS = {
  health: healthView,
  jobs: z.object({ now: int, jobs: z.array(jobView) }).register(components, { id: "JobsAnswer" }),
  runJob: z
    .object({ job: z.string(), slot: int, status: runOutcome, runId: z.string(), ms: z.number() })
    .register(components, { id: "RunAnswer" }),
  leases: z
    .object({
      now: int,
      leases: z.array(z.extend(leaseView, { name: z.string(), declared: z.boolean() })),
    })
    .register(components, { id: "LeasesAnswer" }),
  jobHistory,
  releaseLease: z.object({ released: z.boolean(), lease: leaseView }).register(components, { id: "ReleaseAnswer" }),
  streams: z
    .object({ streams: z.array(z.object({ name: z.string(), listedAt: z.number() })), cursor: nullable(z.string()) })
    .register(components, { id: "StreamsPage" }),
  summary: streamSummary,
  schedules: z
    .object({ schedules: z.array(scheduleView), cursor: nullable(z.string()) })
    .register(components, { id: "SchedulesPage" }),
  schedule: z
    .object({ schedule: scheduleView, events: z.array(scheduleEvent) })
    .register(components, { id: "ScheduleDetail" }),
  putSchedule: scheduleAnswer,
  cancel: scheduleAnswer,
  resume: scheduleAnswer,
  trigger: scheduleAnswer,
  remove: z.object({ removed: z.literal(true), schedule: scheduleView }).register(components, { id: "RemoveAnswer" }),
  streamHistory,
  events: z.object({ events: z.array(scheduleEvent) }).register(components, { id: "EventsPage" }),
}
