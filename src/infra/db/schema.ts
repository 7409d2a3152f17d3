import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core"
import type { JobLease } from "./job-lease.ts"

/** One row per exclusive job: its lease (migrations/0001_jobs_leases.sql) and its last runs (0004_jobs_run_history.sql). */
export const jobsLeases = sqliteTable("jobs_leases", {
  name: text("name").primaryKey(),
  lastSlot: integer("last_slot").notNull(),
  leaseUntil: integer("lease_until"),
  holder: text("holder"),
  /** The holder's lease, beside lease_until (both in the database's clock, jobs/protocol/slot-claim.ts; 0007_jobs_database_clock.sql). */
  leaseMs: integer("lease_ms"),
  /** The last recorded run (ran, failed or timed-out); last_slot may be newer, claimed by a run not yet ended. */
  lastRunSlot: integer("last_run_slot"),
  lastRunId: text("last_run_id"),
  lastOutcome: text("last_outcome"),
  lastMs: integer("last_ms"),
  lastFinishedAt: integer("last_finished_at"),
  lastError: text("last_error"),
  /** JSON the last run reported through ctx.report, or null. */
  lastSummary: text("last_summary"),
  /** JSON array of RunRecord, oldest first, at most RUN_HISTORY_LENGTH. */
  runHistory: text("run_history").notNull().default("[]"),
  /** The hour (its first epoch ms) whose runs ride on the row until a later hour's release flushes them to jobs_run_hours (0009_jobs_hour_fold.sql). */
  hourStart: integer("hour_start"),
  /** That hour's runs, `minute:outcome:ms` entries as jobs_run_hours.runs. */
  hourRuns: text("hour_runs"),
  /** That hour's longest run, ms. */
  hourMaxMs: integer("hour_max_ms"),
  /** Slots a claim won that no release recorded, newest first, comma-separated (0011_jobs_unreleased_slots.sql). */
  unreleasedSlots: text("unreleased_slots"),
})

export type { JobLease }

// JobLease is the table's row, column for column: a column added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
export type JobLeaseIsTheRow = Holds<Same<JobLease, typeof jobsLeases.$inferSelect>>

/** Every stream holding a schedule (migrations/0003_schedule_streams.sql, 0005). */
export const scheduleStreams = sqliteTable("schedule_streams", {
  name: text("name").primaryKey(),
  listedAt: integer("listed_at").notNull(),
  /** The stream's alarm as it last recorded it, within RECORD_SLACK_MS; null when nothing is due. */
  nextEligibleAt: integer("next_eligible_at"),
})

/**
 * Each exclusive job's runs per UTC hour, kept 30 days (migrations/0008_jobs_run_hours.sql): written by the
 * release that ends each run (jobs/protocol/run-hours.ts), in the same D1 batch. `runs` holds the hour's runs as
 * `minute:outcome:ms` entries (outcome r, f, t or s), at most one per minute since a slot is claimed once.
 * Its primary key (job, hour) and its hour index are the migration's: drizzle only builds the queries.
 */
export const jobsRunHours = sqliteTable("jobs_run_hours", {
  job: text("job").notNull(),
  /** The hour's first millisecond (epoch ms, UTC). */
  hour: integer("hour").notNull(),
  ran: integer("ran").notNull(),
  failed: integer("failed").notNull(),
  timedOut: integer("timed_out").notNull(),
  skipped: integer("skipped").notNull(),
  maxMs: integer("max_ms").notNull(),
  runs: text("runs").notNull(),
})

/**
 * Each pause of a job (migrations/0010_alerts_and_pauses.sql): open while `resumedAt` is null (at most one a job,
 * a partial unique index), kept once resumed so its slots show as paused, not missed (jobs/protocol/pauses.ts).
 */
export const jobsPauses = sqliteTable("jobs_pauses", {
  job: text("job").notNull(),
  pausedAt: integer("paused_at").notNull(),
  resumedAt: integer("resumed_at"),
  /** The admin token's label that paused it, or null (the one ADMIN_TOKEN has none). */
  pausedBy: text("paused_by"),
  reason: text("reason").notNull(),
  resumedBy: text("resumed_by"),
})

/** An alert rule's open incident per subject, and whether its notice is in the alert stream yet (alerts/incidents.ts). */
export const alertIncidents = sqliteTable("alert_incidents", {
  rule: text("rule").notNull(),
  subject: text("subject").notNull(),
  openedAt: integer("opened_at").notNull(),
  /** firing, or resolved (its resolved notice owed, then the row is deleted). */
  state: text("state").notNull(),
  /** 1 once the notice of `state` is in the alert stream. */
  sent: integer("sent").notNull(),
  summary: text("summary").notNull(),
  resolvedAt: integer("resolved_at"),
})
