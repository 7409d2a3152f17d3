/**
 * The JSON the admin API answers, route by route: what the handlers build (checked by the compiler)
 * and what the dashboard's browser code reads. Types only, from modules that touch no Worker API.
 */
import type { LeaseStatus } from "../jobs/lease-status.ts"
import type { Heartbeat } from "../jobs/liveness.ts"
import type { RunOutcome, RunRecord, SlotEntry } from "../jobs/record.ts"
import type { ScheduleEvent } from "../schedules/client/events.ts"
import type { ScheduleView, StreamSummary } from "../schedules/client/view.ts"
import type { WatchSummary } from "../schedules/directory/watch-summary.ts"
import type { RouteName } from "./routes.ts"

export type { Heartbeat, LeaseStatus, RunRecord, ScheduleEvent, ScheduleView, SlotEntry, StreamSummary, WatchSummary }

export interface LeaseView {
  lastSlot: number | null
  leaseUntil: number | null
  holder: string | null
  status: LeaseStatus
}

/** A declared job: its cron, its lease, its last recorded run and its newest slots (runs and gaps). */
export interface JobView {
  name: string
  cron: string
  exclusive: boolean
  timeoutMs: number
  leaseMs: number
  nextSlot: number | null
  lease: LeaseView
  lastRun: RunRecord | null
  /** Newest first; empty for a job that has never claimed a slot (and for a non-exclusive job, which records nothing). */
  slots: SlotEntry[]
}

export interface HealthView {
  now: number
  /** False when the heartbeat is late or ahead (a slot claimed in the future), or the watchdog's last run found an overdue stream. */
  ok: boolean
  heartbeat: Heartbeat & { ageMs: number | null }
  watchdog: {
    job: string
    /** Whether the Worker hands the watchdog to its heartbeat (and so to admin). */
    declared: boolean
    lastRun: RunRecord | null
    /** What its last run found, or null when it has reported nothing (never ran, or failed). */
    summary: WatchSummary | null
  }
  retrying: {
    /** Schedules waiting for a retry, in the streams asked. */
    schedules: number
    /** Streams asked: those whose recorded alarm is within a retry's longest wait (a retrying stream's always is). */
    streamsAsked: number
    /** Streams asked that gave no answer in time. */
    unanswered: number
    /** True when every candidate stream was asked and answered, so `schedules` is the whole count. */
    complete: boolean
  }
}

export interface StreamEntry {
  name: string
  listedAt: number
}

/** What each route answers with 200. */
export interface Answers {
  jobs: { now: number; jobs: JobView[] }
  runJob: { job: string; slot: number; status: RunOutcome; runId: string; ms: number }
  leases: { now: number; leases: Array<LeaseView & { name: string; declared: boolean }> }
  releaseLease: { released: boolean; lease: LeaseView }
  health: HealthView
  streams: { streams: StreamEntry[]; cursor: string | null }
  summary: StreamSummary
  schedules: { schedules: ScheduleView[]; cursor: string | null }
  schedule: { schedule: ScheduleView; events: ScheduleEvent[] }
  putSchedule: { schedule: ScheduleView }
  cancel: { schedule: ScheduleView }
  resume: { schedule: ScheduleView }
  trigger: { schedule: ScheduleView }
  remove: { removed: true; schedule: ScheduleView }
  events: { events: ScheduleEvent[] }
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Assert<T extends true> = T
/** A compile error unless every route has its answer's type and no answer names a route that does not exist. */
export type EveryRouteAnswered = Assert<Same<keyof Answers, RouteName>>
