import type { Job } from "./definition.ts"

/** Two jobs of one name in the list given to `Jobs.registry`: they would share one lease. */
export class DuplicateJobError extends Error {
  /** Always "DuplicateJobError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "DuplicateJobError"
}

/**
 * The one list of jobs; a duplicate name fails at start-up, since both would share one lease.
 *
 * @example
 * ```ts
 * export const jobs = Jobs.registry([closeExpiredTrials, rollUpUsage, Schedules.watchdog])
 * ```
 */
export function registry(jobs: readonly Job[]): readonly Job[] {
  const seen = new Set<string>()
  for (const job of jobs) {
    if (seen.has(job.name))
      throw new DuplicateJobError(`job "${job.name}" is declared twice in the list given to \`Jobs.registry\``)
    seen.add(job.name)
  }
  return Object.freeze([...jobs])
}
