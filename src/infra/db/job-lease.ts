/**
 * One jobs_leases row as slotwise reads it (schema.ts checks it is the table's row): its own type, so
 * the published declarations that name a lease never import drizzle's.
 */
export interface JobLease {
  name: string
  lastSlot: number
  leaseUntil: number | null
  holder: string | null
  /** The holder's lease in milliseconds, which lease_until (the database's now + it) is judged by. */
  leaseMs: number | null
  lastRunSlot: number | null
  lastRunId: string | null
  lastOutcome: string | null
  lastMs: number | null
  lastFinishedAt: number | null
  lastError: string | null
  /** JSON the last run reported through ctx.report, or null. */
  lastSummary: string | null
  /** JSON array of RunRecord, oldest first. */
  runHistory: string
  /** The hour (its first epoch ms) whose runs ride on the row until the first release of a later hour flushes them. */
  hourStart: number | null
  /** That hour's runs, `minute:outcome:ms` entries. */
  hourRuns: string | null
  /** That hour's longest run, ms. */
  hourMaxMs: number | null
  /** Slots a claim won that no release recorded, newest first, comma-separated (kept by the claim that took the lease). */
  unreleasedSlots: string | null
}
