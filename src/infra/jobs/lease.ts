import { and, eq, sql } from "drizzle-orm"
import { type Database, type JobLease, jobsLeases } from "../db/index.ts"
import { RUN_HISTORY_LENGTH, type RunEnding } from "./record.ts"

export { type LeaseStatus, leaseStatus } from "./lease-status.ts"

export interface ClaimRequest {
  name: string
  slot: number
  now: number
  leaseMs: number
  holder: string
}

/**
 * Seed Decision 5: one upsert, one row back means this holder owns the slot.
 * `last_slot < slot` stops a retried or late fire; `lease_until < now` stops overlap;
 * a lease beyond now + 2 x lease was written by a clock that jumped, and is reclaimed.
 */
export async function claimSlot(db: Database, claim: ClaimRequest): Promise<boolean> {
  const { name, slot, now, leaseMs, holder } = claim
  const rows = await db
    .insert(jobsLeases)
    .values({ name, lastSlot: slot, leaseUntil: now + leaseMs, holder })
    .onConflictDoUpdate({
      target: jobsLeases.name,
      set: {
        lastSlot: sql`excluded.last_slot`,
        leaseUntil: sql`excluded.lease_until`,
        holder: sql`excluded.holder`,
      },
      setWhere: sql`${jobsLeases.lastSlot} < excluded.last_slot
        AND (${jobsLeases.leaseUntil} IS NULL OR ${jobsLeases.leaseUntil} < ${now}
             OR ${jobsLeases.leaseUntil} > ${now + 2 * leaseMs})`,
    })
    .returning({ name: jobsLeases.name })
  return rows.length === 1
}

/**
 * Ends the lease if `holder` still holds it; `last_slot` stays, so the slot is never run again.
 * Given how the run ended, the same statement records it: the last_* columns, and the run appended
 * to run_history, which keeps the newest RUN_HISTORY_LENGTH (no second write per run).
 */
export async function releaseSlot(db: Database, name: string, holder: string, ending?: RunEnding): Promise<boolean> {
  const rows = await db
    .update(jobsLeases)
    .set({ leaseUntil: null, holder: null, ...(ending ? recorded(ending) : {}) })
    .where(and(eq(jobsLeases.name, name), eq(jobsLeases.holder, holder)))
    .returning({ name: jobsLeases.name })
  return rows.length === 1
}

/** The run record's columns; the history is appended and cut to its newest entries by SQLite's JSON functions. */
function recorded({ record, summary }: RunEnding) {
  const history = sql`coalesce(${jobsLeases.runHistory}, '[]')`
  return {
    lastRunSlot: record.slot,
    lastRunId: record.runId,
    lastOutcome: record.outcome,
    lastMs: record.ms,
    lastFinishedAt: record.finishedAt,
    lastError: record.error,
    lastSummary: summary,
    // json_each walks the array in order, so the kept entries stay oldest first.
    runHistory: sql`(SELECT json_group_array(json(value)) FROM json_each(json_insert(${history}, '$[#]', json(${JSON.stringify(record)})))
      WHERE key > json_array_length(${history}) - ${RUN_HISTORY_LENGTH})`,
  }
}

/** Every lease row, by name. */
export const listLeases = (db: Database): Promise<JobLease[]> => db.select().from(jobsLeases).orderBy(jobsLeases.name)

/**
 * Ends a lease whoever holds it (the admin's "release a stuck lease"); `last_slot` stays, so the
 * released slot is still refused. Answers the lease as it was, or undefined if the job has none.
 */
export async function forceRelease(db: Database, name: string): Promise<JobLease | undefined> {
  const [before] = await db.batch([
    db.select().from(jobsLeases).where(eq(jobsLeases.name, name)),
    db.update(jobsLeases).set({ leaseUntil: null, holder: null }).where(eq(jobsLeases.name, name)),
  ])
  return before[0]
}
