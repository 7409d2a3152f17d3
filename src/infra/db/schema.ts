import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core"

/** One row per exclusive job (migrations/0001_jobs_leases.sql). */
export const jobsLeases = sqliteTable("jobs_leases", {
  name: text("name").primaryKey(),
  lastSlot: integer("last_slot").notNull(),
  leaseUntil: integer("lease_until"),
  holder: text("holder"),
})

export type JobLease = typeof jobsLeases.$inferSelect

/** Every stream holding a schedule (migrations/0003_schedule_streams.sql, 0005). */
export const scheduleStreams = sqliteTable("schedule_streams", {
  name: text("name").primaryKey(),
  listedAt: integer("listed_at").notNull(),
  /** The stream's alarm as it last recorded it, within RECORD_SLACK_MS; null when nothing is due. */
  nextEligibleAt: integer("next_eligible_at"),
})
