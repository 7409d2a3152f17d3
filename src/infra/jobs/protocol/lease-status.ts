import type { JobLease } from "../../db/job-lease.ts"

export type LeaseStatus = "free" | "held" | "expired"

/** A lease as people see it: free (none), held (until a future time), expired (its holder is gone). */
export const leaseStatus = (lease: Pick<JobLease, "leaseUntil"> | undefined, now: number): LeaseStatus =>
  lease?.leaseUntil == null ? "free" : lease.leaseUntil > now ? "held" : "expired"
