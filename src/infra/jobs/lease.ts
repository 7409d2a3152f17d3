import { and, eq, isNull, lte, or, sql } from "drizzle-orm"
import { type Database, type JobLease, jobsLeases } from "../db/index.ts"
import type { HourEntry } from "./hour-entry.ts"
import { RUN_HISTORY_LENGTH, type RunEnding } from "./record.ts"
import { hourStatements } from "./run-hours.ts"
import { DATABASE_NOW, type SlotClaimRequest, slotClaimStatement } from "./slot-claim.ts"

export { type LeaseStatus, leaseStatus } from "./lease-status.ts"
export type { SlotClaimRequest } from "./slot-claim.ts"

/** Claims the slot with the one claim statement (slot-claim.ts); true when `holder` now owns it. */
export async function claimSlot(db: Database, claim: SlotClaimRequest): Promise<boolean> {
  const rows = await db.all(slotClaimStatement(claim))
  return rows.length === 1
}

/** A run that owned its slot but never ran: its claim answered after the run had given up waiting. */
export interface SkippedRun {
  skipped: { slot: number; at: number }
}

/**
 * Ends the lease if `holder` still holds it; `last_slot` stays, so the slot is never run again.
 * Given how the run ended, the same statement records it: the last_* columns, and the run appended
 * to run_history, which keeps the newest RUN_HISTORY_LENGTH (no second write per run). A run whose
 * lease an operator released (no holder, and no later slot claimed since) is still recorded. The
 * run (or the skipped slot) is added to its hour's row in the same batch (run-hours.ts).
 */
export async function releaseSlot(
  db: Database,
  name: string,
  holder: string,
  ending?: RunEnding | SkippedRun,
): Promise<boolean> {
  return (await endRun(db, name, holder, ending)).released
}

/**
 * releaseSlot, answering also the slot of the run recorded before this one (null: none), read in the
 * same batch before the release writes: the gap the cron named between them is the missed slots.
 */
export async function endRun(
  db: Database,
  name: string,
  holder: string,
  ending?: RunEnding | SkippedRun,
): Promise<{ released: boolean; previousRunSlot: number | null }> {
  const held = eq(jobsLeases.holder, holder)
  const record = ending && "record" in ending ? ending : undefined
  // A lease with no holder and this run's slot as last_slot was released from under this run by admin.
  const releasedByOperator = record
    ? and(isNull(jobsLeases.holder), eq(jobsLeases.lastSlot, record.record.slot))
    : undefined
  const release = db
    .update(jobsLeases)
    // lease_ms goes with the lease: a later claim by 0.1.0 (which never writes it) leaves it null, never another run's.
    .set({ leaseUntil: null, leaseMs: null, holder: null, ...(record ? recorded(record) : {}) })
    .where(and(eq(jobsLeases.name, name), releasedByOperator ? or(held, releasedByOperator) : held))
    .returning({ name: jobsLeases.name })
  const entry = hourEntryOf(ending)
  if (entry === undefined) return { released: (await release).length === 1, previousRunSlot: null }
  const [before, released] = await db.batch([
    db.select({ slot: jobsLeases.lastRunSlot }).from(jobsLeases).where(eq(jobsLeases.name, name)),
    release,
    ...hourStatements(db, name, entry.entry, entry.now),
  ])
  return { released: released.length === 1, previousRunSlot: before[0]?.slot ?? null }
}

function hourEntryOf(ending: RunEnding | SkippedRun | undefined): { entry: HourEntry; now: number } | undefined {
  if (ending === undefined) return undefined
  if ("skipped" in ending) {
    return { entry: { slot: ending.skipped.slot, outcome: "skipped", ms: 0 }, now: ending.skipped.at }
  }
  const { slot, outcome, ms, finishedAt } = ending.record
  return { entry: { slot, outcome, ms }, now: finishedAt }
}

/**
 * The run record's columns; the history is appended and cut to its newest entries by string functions
 * SQLite and Postgres share (no JSON functions: theirs differ). Entries are flat JSON objects, and a `"`
 * inside a JSON string is always escaped, so `{"` opens an entry and `},{"` separates two, nowhere else.
 */
function recorded({ record, summary }: RunEnding) {
  const history = sql`coalesce(${jobsLeases.runHistory}, '[]')`
  const entries = sql`(length(${history}) - length(replace(${history}, '{"', ''))) / 2`
  // instr is SQLite's and strpos Postgres': the first separator is found by a recursive walk both run.
  const firstSeparator = sql`(with recursive scan(at) as (select 1 union all select at + 1 from scan
    where at < length(${history}) and substr(${history}, at, 4) <> '},{"') select max(at) from scan)`
  const kept = sql`(case when ${entries} < ${RUN_HISTORY_LENGTH} then ${history}
    else '[' || substr(${history}, ${firstSeparator} + 2) end)`
  const entry = sql`cast(${JSON.stringify(record)} as text)`
  return {
    lastRunSlot: record.slot,
    lastRunId: record.runId,
    lastOutcome: record.outcome,
    lastMs: record.ms,
    lastFinishedAt: record.finishedAt,
    lastError: record.error,
    lastSummary: summary,
    // Oldest first: the oldest entry is cut when the history is full, the new one appended.
    runHistory: sql`(case when ${kept} = '[]' then '[' || ${entry} || ']'
      else substr(${kept}, 1, length(${kept}) - 1) || ',' || ${entry} || ']' end)`,
  }
}

/** Every lease row, by name. */
export const listLeases = (db: Database): Promise<JobLease[]> => db.select().from(jobsLeases).orderBy(jobsLeases.name)

/** What a forced or unforced release found: the lease as it was (undefined: the job has none), and whether it ended. */
export interface ForcedRelease {
  before: JobLease | undefined
  /** False when unforced and the database's clock says the lease is still held: nothing was written. */
  ended: boolean
}

/**
 * Ends a lease whoever holds it (the admin's "release a stuck lease"); `last_slot` stays, so the
 * released slot is still refused. Unforced, only a lease free or expired by the database's clock (the
 * one that wrote it, slot-claim.ts) is ended, and a held one is left as it is, in the same batch: a
 * replica's clock ahead never frees a lease the database still holds.
 */
export async function forceRelease(db: Database, name: string, force: boolean): Promise<ForcedRelease> {
  const named = eq(jobsLeases.name, name)
  const releasable = force
    ? named
    : and(named, or(isNull(jobsLeases.leaseUntil), lte(jobsLeases.leaseUntil, DATABASE_NOW)))
  const [before, ended] = await db.batch([
    db.select().from(jobsLeases).where(named),
    db
      .update(jobsLeases)
      .set({ leaseUntil: null, leaseMs: null, holder: null })
      .where(releasable)
      .returning({ name: jobsLeases.name }),
  ])
  return { before: before[0], ended: ended.length === 1 }
}
