import { and, eq, isNull, lte, or, sql } from "drizzle-orm"
import { type Database, type JobLease, jobsLeases } from "../../db/index.ts"
import type { RunEnding } from "../contract/record.ts"
import { DATABASE_NOW, type SlotClaimRequest, slotClaimStatement, UNRELEASED } from "./slot-claim.ts"
import { releaseStatements, runReleases } from "./slot-release.ts"

export { type LeaseStatus, leaseStatus } from "./lease-status.ts"
export type { SlotClaimRequest } from "./slot-claim.ts"

/** Claims one slot with the claim statement (slot-claim.ts); true when `holder` now owns it. */
export async function claimSlot(db: Database, claim: SlotClaimRequest): Promise<boolean> {
  const rows = await db.all(slotClaimStatement(claim))
  return rows.length === 1
}

/** A run that owned its slot but never ran: its claim answered after the run had given up waiting. */
export interface SkippedRun {
  skipped: { slot: number; at: number }
}

/**
 * Ends the lease if `holder` still holds it; `last_slot` stays, so the slot is never run again. Given how
 * the run ended, the same statement records it (slot-release.ts: the last_* columns, run_history, and the
 * run folded into the row's hour, the hour it ends flushed to jobs_run_hours in the same batch). A run
 * whose lease an operator released (no holder, and no later slot claimed since) is still recorded. A
 * skipped slot (its claim answered too late to run) is added to its hour row directly (run-hours.ts).
 */
export async function releaseSlot(
  db: Database,
  name: string,
  holder: string,
  ending?: RunEnding | SkippedRun,
): Promise<boolean> {
  if (ending && "record" in ending) {
    const { record, summary } = ending
    const statements = releaseStatements([{ name, holder, record, summary }], record.finishedAt)
    return (await runReleases(db.$client, statements)).has(name)
  }
  if (ending !== undefined) {
    // The lease ended by its holder and the slot added to its hour as skipped, in one batch (slot-release.ts).
    const { slot, at } = ending.skipped
    const skip = { name, slot, holder, reason: "claim timed out" as const }
    const [ended] = await db.$client.batch(
      releaseStatements([], at, [skip]).map(({ text, values }) => db.$client.prepare(text).bind(...values)),
    )
    return (ended?.meta.changes ?? 0) > 0
  }
  const release = db
    .update(jobsLeases)
    // lease_ms goes with the lease: a later claim by 0.1.0 (which never writes it) leaves it null, never another run's.
    .set({ leaseUntil: null, leaseMs: null, holder: null })
    .where(and(eq(jobsLeases.name, name), eq(jobsLeases.holder, holder)))
    .returning({ name: jobsLeases.name })
  return (await release).length === 1
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
      // The holder it clears keeps its slot as won (slot-claim.ts, UNRELEASED): a run its release never recorded
      // (the next claim finds no holder to keep) is then never said taken.
      .set({ leaseUntil: null, leaseMs: null, holder: null, unreleasedSlots: sql.raw(UNRELEASED) })
      .where(releasable)
      .returning({ name: jobsLeases.name }),
  ])
  return { before: before[0], ended: ended.length === 1 }
}
