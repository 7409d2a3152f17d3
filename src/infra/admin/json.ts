/**
 * The JSON the admin API answers, route by route: what the handlers build (checked by the compiler)
 * and what the dashboard's browser code reads. Types only, inferred from answers.ts's schemas, the
 * same ones /openapi.json documents; each view the engine also types is asserted equal to its type.
 */
import type * as z from "zod/mini"
import type { Problem as ProblemDetails } from "../http/problem.ts"
import type { JobHistory } from "../jobs/history.ts"
import type { LeaseStatus } from "../jobs/lease-status.ts"
import type { Heartbeat } from "../jobs/liveness.ts"
import type { RunOutcome, RunRecord, SlotEntry } from "../jobs/record.ts"
import type { Json } from "../schedules/client/contract.ts"
import type { ScheduleEvent } from "../schedules/client/events.ts"
import type { StreamHistory } from "../schedules/client/history.ts"
import type { ScheduleView, StreamSummary } from "../schedules/client/view.ts"
import type { WatchSummary } from "../schedules/directory/watch-summary.ts"
import type * as schemas from "./answers.ts"
import type { RouteName } from "./routes.ts"

export type { Heartbeat, LeaseStatus, RunRecord, ScheduleEvent, ScheduleView, SlotEntry, StreamSummary, WatchSummary }

export type LeaseView = z.infer<typeof schemas.leaseView>
/** A declared job: its cron, its lease, its last recorded run and its newest slots (runs and gaps; none for a non-exclusive job). */
export type JobView = z.infer<typeof schemas.jobView>
/** `ok` is false when the heartbeat is late or ahead, or the watchdog's last run found an overdue stream. */
/** A job's hourly history and a stream's history of deliveries, as the dashboard charts them. */
export type { JobHistory, StreamHistory }
export type HealthView = z.infer<typeof schemas.healthView>
export type StreamEntry = Answers["streams"]["streams"][number]
export type Problem = z.infer<typeof schemas.problemSchema>

/** What each route answers with 200. */
export type Answers = { [R in keyof typeof schemas.ANSWERS]: z.infer<(typeof schemas.ANSWERS)[R]> }

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Assert<T extends true> = T
type AssertAll<T extends readonly true[]> = T
/** A compile error unless every route has its answer's type and no answer names a route that does not exist. */
export type EveryRouteAnswered = Assert<Same<keyof Answers, RouteName>>
/** A compile error when a schema and the engine's type of the same view drift apart. */
export type SchemasMatchTheEngine = AssertAll<
  [
    Same<z.infer<typeof schemas.json>, Json>,
    Same<z.infer<typeof schemas.scheduleView>, ScheduleView>,
    Same<z.infer<typeof schemas.scheduleEvent>, ScheduleEvent>,
    Same<z.infer<typeof schemas.streamSummary>, StreamSummary>,
    Same<z.infer<typeof schemas.jobHistory>, JobHistory>,
    Same<z.infer<typeof schemas.streamHistory>, StreamHistory>,
    Same<z.infer<typeof schemas.runRecord>, RunRecord>,
    Same<z.infer<typeof schemas.slotEntry>, SlotEntry>,
    Same<z.infer<typeof schemas.heartbeatSchema>, Heartbeat>,
    Same<z.infer<typeof schemas.watchSummary>, WatchSummary>,
    Same<z.infer<typeof schemas.leaseStatusSchema>, LeaseStatus>,
    Same<z.infer<typeof schemas.runOutcome>, RunOutcome>,
    Problem extends ProblemDetails ? true : false,
  ]
>
