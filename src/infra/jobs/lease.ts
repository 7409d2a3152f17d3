import { and, eq } from "drizzle-orm"
import { type Database, type JobLease, jobsLeases } from "../db/index.ts"
import { type ClaimRequest, claimStatement } from "./claim.ts"

export type { ClaimRequest } from "./claim.ts"

/** Claims the slot with the one claim statement (claim.ts); true when `holder` now owns it. */
export async function claimSlot(db: Database, claim: ClaimRequest): Promise<boolean> {
  const rows = await db.all(claimStatement(claim))
  return rows.length === 1
}

/** Ends the lease if `holder` still holds it; `last_slot` stays, so the slot is never run again. */
export async function releaseSlot(db: Database, name: string, holder: string): Promise<boolean> {
  const rows = await db
    .update(jobsLeases)
    .set({ leaseUntil: null, holder: null })
    .where(and(eq(jobsLeases.name, name), eq(jobsLeases.holder, holder)))
    .returning({ name: jobsLeases.name })
  return rows.length === 1
}

export type LeaseStatus = "free" | "held" | "expired"

/** A lease as people see it: free (none), held (until a future time), expired (its holder is gone). */
export const leaseStatus = (lease: Pick<JobLease, "leaseUntil"> | undefined, now: number): LeaseStatus =>
  lease?.leaseUntil == null ? "free" : lease.leaseUntil > now ? "held" : "expired"

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
