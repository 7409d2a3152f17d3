/**
 * The JSON the admin API answers, route by route: zod/mini schemas, the types inferred from them
 * (what the handlers build, checked by the compiler, and what the dashboard's browser code reads),
 * and /openapi.json's JSON Schemas of the same schemas, so the document and the handlers' types
 * cannot differ. Each view the engine also types is asserted equal to its type.
 */
import * as z from "zod/mini"
import type { Problem } from "../http/problem.ts"
import type { Pause } from "../jobs/contract/pause.ts"
import type { RunOutcome, RunRecord, SlotEntry } from "../jobs/contract/record.ts"
import type { JobHistory } from "../jobs/history/history.ts"
import type { HeartbeatLiveness } from "../jobs/history/liveness.ts"
import type { LeaseStatus } from "../jobs/protocol/lease-status.ts"
import type { StreamHistory } from "../schedules/contract/history.ts"
import type { ScheduleEvent } from "../schedules/contract/schedule-events.ts"
import type { Json } from "../schedules/contract/spec.ts"
import { STATES } from "../schedules/contract/states.ts"
import type { BackfillReport, ScheduleView, StreamSummary } from "../schedules/contract/view.ts"
import type { WatchSummary } from "../schedules/directory/watch-summary.ts"
import type { RouteName } from "./routes.ts"

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
    status: z.enum(["ran", "failed", "timed-out", "running", "unrecorded", "missed", "paused"]),
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

/** A pause of a job: since when, by whom (the admin token's label, null without one) and why; resumedAt null while paused. */
export const pauseView = z
  .object({
    job: z.string(),
    pausedAt: int,
    pausedBy: nullable(z.string()),
    reason: z.string(),
    resumedAt: nullable(int),
    resumedBy: nullable(z.string()),
  })
  .register(components, { id: "Pause" })

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
    /** The job's pause while it is paused, else null: the heartbeat skips its slots. */
    paused: nullable(pauseView),
  })
  .register(components, { id: "JobView" })

export const heartbeatLivenessSchema = z.object({
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
    heartbeat: z.extend(heartbeatLivenessSchema, { ageMs: nullable(z.number()) }),
    watchdog: z.object({
      job: z.string(),
      declared: z.boolean(),
      lastRun: nullable(runRecord),
      summary: nullable(watchSummary),
    }),
    retrying: z.object({ schedules: int, streamsAsked: int, unanswered: int, complete: z.boolean() }),
    /** Every job paused now, the longest paused first. */
    paused: z.array(pauseView),
    /** What health cannot vouch for while a job it reads from (the watchdog, the alerts job) is paused: not ok then. */
    blind: z.array(z.object({ job: z.string(), cannot: z.string(), pause: pauseView })),
    capacity: z.object({
      plan: z.string(),
      jobsPerHeartbeat: int,
      mostDue: int,
      mostDueAt: nullable(z.string()),
      overflowQueue: nullable(z.string()),
      ok: z.boolean(),
    }),
    heldLeases: z.array(z.object({ job: z.string(), slot: int, runId: z.string(), leaseUntil: int, refusedSlot: int })),
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
    cadenceAt: z.number(),
    startAt: nullable(z.number()),
    endAt: nullable(z.number()),
    times: nullable(int),
    delivered: int,
    jitterMs: nullable(z.number()),
    cancelReason: nullable(z.string()),
    backfillOf: nullable(z.string()),
  })
  .register(components, { id: "ScheduleView" })

export const backfillReport = z
  .object({
    scheduleId: z.string(),
    from: z.number(),
    to: z.number(),
    count: int,
    firstAt: nullable(z.number()),
    lastAt: nullable(z.number()),
    dryRun: z.boolean(),
    ids: z.array(z.string()),
  })
  .register(components, { id: "BackfillReport" })

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
    newestError: nullable(z.object({ id: z.string(), error: z.string(), at: z.number() })),
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
  paused: int,
  medianMs: ms,
  maxMs: ms,
})

export const daySlot = z.object({
  slot: int,
  status: z.enum(["ran", "failed", "timed-out", "skipped", "missed", "paused", "claimed", "due", "unknown"]),
  ms: nullable(z.number()),
})

export const jobHistory = z
  .object({
    job: z.string(),
    now: int,
    days: int,
    knownSince: nullable(int),
    hours: z.array(hourPoint),
    today: z.array(daySlot),
  })
  .register(components, { id: "JobHistory" })

export const deliveryPoint = z.object({
  at: int,
  delivered: int,
  backfilled: int,
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
  pauseJob: z.object({ pause: pauseView, created: z.boolean() }).register(components, { id: "PauseAnswer" }),
  resumeJob: z.object({ pause: pauseView }).register(components, { id: "ResumeAnswer" }),
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
  backfill: z
    .object({ schedule: scheduleView, backfill: backfillReport })
    .register(components, { id: "BackfillAnswer" }),
  streamHistory,
  events: z.object({ events: z.array(scheduleEvent) }).register(components, { id: "EventsPage" }),
}

export type {
  HeartbeatLiveness,
  LeaseStatus,
  RunRecord,
  ScheduleEvent,
  ScheduleView,
  SlotEntry,
  StreamSummary,
  WatchSummary,
}

export type LeaseView = z.infer<typeof leaseView>
/** A declared job: its cron, its lease, its last recorded run and its newest slots (runs and gaps; none for a non-exclusive job). */
export type JobView = z.infer<typeof jobView>
/** A job's hourly history and a stream's history of deliveries, as the dashboard charts them. */
export type { JobHistory, StreamHistory }
/** `ok` is false when the heartbeat is late or ahead, or the watchdog's last run found an overdue stream. */
export type HealthView = z.infer<typeof healthView>

/** What each route answers with 200, as a type. */
export type Answers = { [R in keyof typeof ANSWERS]: z.infer<(typeof ANSWERS)[R]> }

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Assert<T extends true> = T
type AssertAll<T extends readonly true[]> = T
/** A compile error unless every route has its answer's type and no answer names a route that does not exist. */
export type EveryRouteAnswered = Assert<Same<keyof Answers, RouteName>>
/** A compile error when a schema and the engine's type of the same view drift apart. */
export type SchemasMatchTheEngine = AssertAll<
  [
    Same<z.infer<typeof json>, Json>,
    Same<z.infer<typeof scheduleView>, ScheduleView>,
    Same<z.infer<typeof scheduleEvent>, ScheduleEvent>,
    Same<z.infer<typeof backfillReport>, BackfillReport>,
    Same<z.infer<typeof streamSummary>, StreamSummary>,
    Same<z.infer<typeof jobHistory>, JobHistory>,
    Same<z.infer<typeof streamHistory>, StreamHistory>,
    Same<z.infer<typeof runRecord>, RunRecord>,
    Same<z.infer<typeof pauseView>, Pause>,
    Same<z.infer<typeof slotEntry>, SlotEntry>,
    Same<z.infer<typeof heartbeatLivenessSchema>, HeartbeatLiveness>,
    Same<z.infer<typeof watchSummary>, WatchSummary>,
    Same<z.infer<typeof leaseStatusSchema>, LeaseStatus>,
    Same<z.infer<typeof runOutcome>, RunOutcome>,
    z.infer<typeof problemSchema> extends Problem ? true : false,
  ]
>
