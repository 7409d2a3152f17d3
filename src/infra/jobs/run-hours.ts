import { and, eq, gte, sql } from "drizzle-orm"
import type { SQLiteColumn } from "drizzle-orm/sqlite-core"
import { type Database, jobsLeases, jobsRunHours } from "../db/index.ts"
import { entriesOf, entryText, HOUR_MS, type HourEntry, type HourOutcome } from "./hour-entry.ts"

export { HOUR_MS } from "./hour-entry.ts"
/** How long a job's hourly history is kept: rows are bounded by jobs x 24 x 30. */
export const RUN_HOURS_KEPT_MS = 30 * 24 * HOUR_MS
/** Hours past the window one release deletes at most (each release adds at most one). */
export const RUN_HOURS_SWEPT = 4
/** A slot is claimed once and an hour has 60: more entries than this are never appended. */
const ENTRIES_MAX = 60

const count = (entry: HourEntry, outcome: HourOutcome) => (entry.outcome === outcome ? 1 : 0)

/**
 * The two statements the release adds to its batch (ARCHITECTURE.md, "History"): the run added to its
 * slot's hour row (an upsert: counts added, max kept, the entry appended), and the oldest few hours
 * past RUN_HOURS_KEPT_MS deleted through the hour index. One text on D1, SQLite and PostgreSQL.
 */
export function hourStatements(db: Database, job: string, entry: HourEntry, now: number) {
  const hours = jobsRunHours
  const added = (column: SQLiteColumn) => sql`${column} + excluded.${sql.identifier(column.name)}`
  const entries = sql`length(${hours.runs}) - length(replace(${hours.runs}, ',', '')) + 1`
  // Unqualified, as PostgreSQL requires of a conflict target (drizzle would name the table too); SQLite takes both.
  const target = [sql.identifier("job"), sql.identifier("hour")] as unknown as SQLiteColumn[]
  const upsert = db
    .insert(hours)
    .values({
      job,
      hour: entry.slot - (entry.slot % HOUR_MS),
      ran: count(entry, "ran"),
      failed: count(entry, "failed"),
      timedOut: count(entry, "timed-out"),
      skipped: count(entry, "skipped"),
      maxMs: Math.round(entry.ms),
      runs: entryText(entry),
    })
    .onConflictDoUpdate({
      target,
      set: {
        ran: added(hours.ran),
        failed: added(hours.failed),
        timedOut: added(hours.timedOut),
        skipped: added(hours.skipped),
        maxMs: sql`case when excluded.max_ms > ${hours.maxMs} then excluded.max_ms else ${hours.maxMs} end`,
        runs: sql`case when ${entries} >= ${ENTRIES_MAX} then ${hours.runs} else ${hours.runs} || ',' || excluded.runs end`,
      },
    })
  const sweep = db.delete(hours).where(
    sql`(${hours.job}, ${hours.hour}) in (select job, hour from jobs_run_hours where hour < ${now - RUN_HOURS_KEPT_MS}
        order by hour limit ${RUN_HOURS_SWEPT})`,
  )
  return [upsert, sweep] as const
}

/** The slot of the first run an hour row records (entries are appended as runs end, not in slot order). */
function firstRunIn(row: { hour: number; runs: string } | undefined): number | null {
  if (!row) return null
  const slots = entriesOf(row.hour, row.runs).map((entry) => entry.slot)
  return slots.length ? Math.min(...slots) : row.hour
}

/**
 * What a job's history is read from, in one batch: its hour rows from `since` (by the primary key), the
 * slot of the first run its oldest hour kept records, and its lease's last slot.
 */
export async function readRunHours(db: Database, job: string, since: number) {
  const hours = jobsRunHours
  const [rows, oldest, lease] = await db.batch([
    db
      .select({ hour: hours.hour, runs: hours.runs })
      .from(hours)
      .where(and(eq(hours.job, job), gte(hours.hour, since))),
    db
      .select({ hour: hours.hour, runs: hours.runs })
      .from(hours)
      .where(eq(hours.job, job))
      .orderBy(hours.hour)
      .limit(1),
    db.select({ lastSlot: jobsLeases.lastSlot }).from(jobsLeases).where(eq(jobsLeases.name, job)),
  ])
  return { rows, firstRun: firstRunIn(oldest[0]), lease: lease[0] }
}
