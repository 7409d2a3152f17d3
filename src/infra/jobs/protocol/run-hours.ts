import { and, eq, gte } from "drizzle-orm"
import { type Database, jobsLeases, jobsRunHours } from "../../db/index.ts"
import { entriesOf, entryText, HOUR_MS } from "../contract/hour-entry.ts"
import { type RunRecord, runsOf } from "../contract/record.ts"

export { RUN_HOURS_KEPT_MS, RUN_HOURS_SWEPT } from "./slot-release.ts"
export { HOUR_MS }

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
      .select({
        lastSlot: jobsLeases.lastSlot,
        hourStart: jobsLeases.hourStart,
        hourRuns: jobsLeases.hourRuns,
        runHistory: jobsLeases.runHistory,
      })
      .from(jobsLeases)
      .where(eq(jobsLeases.name, job)),
  ])
  const lease = leases[0]
  const history = runsOf(lease)
  const rows = withUnfolded(foldedInto(stored, lease, since), history, since)
  const folded =
    lease?.hourStart != null && lease.hourRuns ? { hour: lease.hourStart, runs: lease.hourRuns } : undefined
  // The run history's oldest too: runs 0.1.0 recorded are in no hour.
  const firsts = [
    firstRunIn(oldest[0]),
    firstRunIn(folded),
    history.length ? Math.min(...history.map((run) => run.slot)) : null,
  ].filter((slot): slot is number => typeof slot === "number")
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

/**
 * The rows with the runs of the lease row's run history that no hour holds added to their hours: runs a release
 * that writes no hour recorded (0.1.0's, during a rollout), read as ran until today's next release folds them.
 */
function withUnfolded(rows: Array<{ hour: number; runs: string }>, runs: readonly RunRecord[], since: number) {
  const ran = (row: { hour: number; runs: string }) =>
    entriesOf(row.hour, row.runs).filter((e) => e.outcome !== "skipped")
  const held = new Set(rows.flatMap((row) => ran(row).map((entry) => entry.slot)))
  for (const run of runs) {
    if (run.slot < since || held.has(run.slot)) continue
    const hour = run.slot - (run.slot % HOUR_MS)
    const text = entryText({ slot: run.slot, outcome: run.outcome, ms: run.ms })
    const row = rows.find((known) => known.hour === hour)
    if (row) row.runs = `${row.runs},${text}`
    else rows.push({ hour, runs: text })
  }
  return rows
}
