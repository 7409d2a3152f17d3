/**
 * What each admin route means, for its OpenAPI operation: its summary and what each query parameter
 * means (the route's validator checks them). Read at build time only (openapi-document.ts): neither the
 * Worker nor the dashboard's bundle carries this text.
 */
import type { RouteName } from "../../src/infra/admin/routes.ts"

export interface RouteDoc {
  summary: string
  query?: Readonly<Record<string, string>>
}

const PAGE = "page size, 1..500 (default 50)"

export const ROUTE_DOCS: Record<RouteName, RouteDoc> = {
  health: {
    summary:
      "Whether the heartbeat fires, what the watchdog's last run found overdue, and how many schedules are retrying",
  },
  jobs: {
    summary: "Every declared job with its next slot, its lease, its last run and its newest slots (runs and gaps)",
  },
  runJob: {
    summary: "Runs a job now for the current minute's slot (an exclusive job still claims it)",
  },
  jobHistory: {
    summary:
      "An exclusive job's runs per UTC hour: slots due, ran, failed, timed out, skipped and missed, and the median and max duration",
    query: { days: "days back from now, 1..30 (default 7)" },
  },
  pauseJob: {
    summary:
      "Pauses a job, with a reason: the heartbeat skips its slots (shown as paused, not missed) until it is resumed. Pausing a paused job changes nothing (created: false)",
  },
  resumeJob: {
    summary: "Resumes a paused job: it runs again from its next slot. 409 when it is not paused",
  },
  leases: {
    summary: "Every lease row, declared job or not",
  },
  releaseLease: {
    summary:
      "Releases a lease; last_slot stays, so its slot is still refused. A lease still within its run's timeout is 409 unless forced; the run's outcome is still recorded",
    query: { force: "true releases a lease still held by a run within its timeout" },
  },
  streams: {
    summary: "The streams in the directory, by name",
    query: { limit: PAGE, cursor: "the previous page's cursor: the last stream name it showed" },
  },
  summary: {
    summary: "A stream's schedules counted by state, how many retry, and the overdue one due longest ago",
  },
  schedules: {
    summary: "A stream's schedules by id, optionally in one state",
    query: {
      state: "scheduled, completed, cancelled or failed",
      limit: PAGE,
      cursor: "the previous page's cursor: the last schedule id it showed",
    },
  },
  schedule: {
    summary: "A schedule and its newest events (each schedule keeps its newest 12)",
  },
  putSchedule: {
    summary:
      "Creates or replaces a schedule (the same rules as the client's upsert): a timing, and for every and cron an optional window (startAt, endAt), count (times) and jitter",
  },
  cancel: {
    summary:
      "Cancels a schedule: nothing more is delivered until it is resumed. An optional JSON body's reason is kept on the schedule (cancelReason) and in its schedule/cancelled event",
  },
  backfill: {
    summary:
      "Delivers once more each occurrence a recurring schedule names in a past range (at most 1,000), each as a one-shot of its own with its own key, paced by the stream's delivery loop; dryRun only counts them. 409 for a one-shot or a range over the limit",
  },
  resume: {
    summary: "Resumes a cancelled or failed schedule from its next due time",
  },
  trigger: {
    summary: "Delivers the current occurrence now; the cadence is unchanged",
  },
  remove: {
    summary: "Removes a finished or cancelled schedule now (a scheduled one: cancel it first)",
  },
  streamHistory: {
    summary:
      "A stream's deliveries, retries, failures and lateness (median, p99, max) per minute for the last day, or per hour for 30 days",
    query: { range: "day (per minute, the default) or month (per hour)" },
  },
  events: {
    summary: "A stream's newest events",
    query: {
      limit: PAGE,
      before: "an event seq: only older events",
      scheduleId: "only this schedule's events",
    },
  },
}
