import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core"

/** One row per exclusive job (migrations/0001_jobs_leases.sql). */
export const jobsLeases = sqliteTable("jobs_leases", {
  name: text("name").primaryKey(),
  lastSlot: integer("last_slot").notNull(),
  leaseUntil: integer("lease_until"),
  holder: text("holder"),
})

export type JobLease = typeof jobsLeases.$inferSelect

/** Every stream holding a schedule (migrations/0003_schedule_streams.sql). */
export const scheduleStreams = sqliteTable("schedule_streams", {
  name: text("name").primaryKey(),
  listedAt: integer("listed_at").notNull(),
})
