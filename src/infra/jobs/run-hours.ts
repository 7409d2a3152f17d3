import { and, eq, gte, sql } from "drizzle-orm"
import type { SQLiteColumn } from "drizzle-orm/sqlite-core"
import { type Database, jobsLeases, jobsRunHours } from "../db/index.ts"
import { entriesOf, entryText, HOUR_MS, type HourEntry, type HourOutcome } from "./hour-entry.ts"

import { RUN_HOURS_KEPT_MS, RUN_HOURS_SWEPT } from "./slot-release.ts"

export { HOUR_MS } from "./hour-entry.ts"
export { RUN_HOURS_KEPT_MS, RUN_HOURS_SWEPT } from "./slot-release.ts"

/** A slot is claimed once and an hour has 60: more entries than this are never appended. */
const ENTRIES_MAX = 60

const count = (entry: HourEntry, outcome: HourOutcome) => (entry.outcome === outcome ? 1 : 0)

/**
 * The two statements a single release of a slot no run took (a late claim's, jobs/lease.ts) adds to its
 * batch: the slot added to its hour row in jobs_run_hours directly (an upsert: counts added, max kept,
 * the entry appended), and the oldest few hours past RUN_HOURS_KEPT_MS deleted through the hour index.
 * A run's own release folds its hour into the lease row instead (slot-release.ts). One text on D1,
 * SQLite and PostgreSQL.
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
 * What a job's history is read from, in one batch (the one place it is read): its hour rows from `since`
 * (by the primary key), the slot of its first run recorded, and its lease row's last slot and the hour folded on it,
 * which is one more hour row (added to a row of the same hour a release before migration 0009 wrote).
 */
export async function readRunHours(db: Database, job: string, since: number) {
  const hours = jobsRunHours
  const [stored, oldest, leases] = await db.batch([
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
    db
      .select({ lastSlot: jobsLeases.lastSlot, hourStart: jobsLeases.hourStart, hourRuns: jobsLeases.hourRuns })
      .from(jobsLeases)
      .where(eq(jobsLeases.name, job)),
  ])
  const lease = leases[0]
  const rows = foldedInto(stored, lease, since)
  const folded =
    lease?.hourStart != null && lease.hourRuns ? { hour: lease.hourStart, runs: lease.hourRuns } : undefined
  const firsts = [firstRunIn(oldest[0]), firstRunIn(folded)].filter((slot): slot is number => slot !== null)
  return {
    rows,
    firstRun: firsts.length ? Math.min(...firsts) : null,
    lease: lease && { lastSlot: lease.lastSlot },
  }
}

/** The stored hour rows with the lease row's folded hour among them. */
function foldedInto(
  rows: ReadonlyArray<{ hour: number; runs: string }>,
  lease: { hourStart: number | null; hourRuns: string | null } | undefined,
  since: number,
) {
  const { hourStart, hourRuns } = lease ?? {}
  if (hourStart == null || !hourRuns || hourStart < since) return [...rows]
  const same = rows.find((row) => row.hour === hourStart)
  return same
    ? rows.map((row) => (row === same ? { hour: row.hour, runs: `${row.runs},${hourRuns}` } : row))
    : [...rows, { hour: hourStart, runs: hourRuns }]
}
