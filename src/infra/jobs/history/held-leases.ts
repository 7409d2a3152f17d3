import type { CronSchedule } from "../../cron.ts"
import type { JobLease } from "../../db/job-lease.ts"

/** A lease still held past its job's next slot: that slot's claim was refused (a run running long, or a release that failed). */
export interface HeldLease {
  job: string
  /** The holder's slot (epoch ms). */
  slot: number
  /** The holder, the run id. */
  runId: string
  /** When the lease ends by itself, by the database's clock as it was written. */
  leaseUntil: number
  /** The first slot after the holder's that the lease refused. */
  refusedSlot: number
}

/**
 * The leases of exclusive jobs that are held past their job's next slot at `now`, from the lease rows
 * alone: each such slot's claim was refused and warned once (run.ts); they are missed until the lease ends.
 */
export function heldLeases(
  jobs: ReadonlyArray<{ name: string; exclusive: boolean; schedule: Pick<CronSchedule, "nextAfter"> }>,
  leases: ReadonlyArray<Pick<JobLease, "name" | "lastSlot" | "holder" | "leaseUntil">>,
  now: number,
): HeldLease[] {
  const byName = new Map(leases.map((lease) => [lease.name, lease]))
  return jobs.flatMap((job) => {
    const lease = byName.get(job.name)
    if (!job.exclusive || !lease || lease.holder === null || lease.leaseUntil === null || lease.leaseUntil <= now)
      return []
    const refusedSlot = job.schedule.nextAfter(lease.lastSlot)
    if (refusedSlot === undefined || refusedSlot > now) return []
    return [{ job: job.name, slot: lease.lastSlot, runId: lease.holder, leaseUntil: lease.leaseUntil, refusedSlot }]
  })
}
