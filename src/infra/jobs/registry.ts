import type { Job } from "./definition.ts"

export class DuplicateJobError extends Error {
  override name = "DuplicateJobError"
}

/** The one list of jobs; a duplicate name fails at start-up, since both would share one lease. */
export function registry(jobs: readonly Job[]): readonly Job[] {
  const seen = new Set<string>()
  for (const job of jobs) {
    if (seen.has(job.name))
      throw new DuplicateJobError(`job "${job.name}" is declared twice in the list given to \`Jobs.registry\``)
    seen.add(job.name)
  }
  return Object.freeze([...jobs])
}
