import type { JobLease } from "../../db/job-lease.ts"
import type { Job } from "../contract/definition.ts"
import { type Pause, pauseHolds } from "../contract/pause.ts"
import { runsOf, type SlotEntry } from "../contract/record.ts"
import { slotOf } from "../contract/slot.ts"
import { MISSED_AFTER_MS } from "./liveness.ts"

/** How many of a job's newest slots the admin shows. */
export const TIMELINE_LENGTH = 20

/** The slots a claim won that no release recorded (slot-claim.ts, UNRELEASED): comma-separated, the last maybe cut. */
const unreleasedOf = (lease: Pick<JobLease, "unreleasedSlots">): number[] =>
  (lease.unreleasedSlots ?? "").split(",").map(Number).filter(Number.isSafeInteger)

/**
 * A job's newest slots, newest first: the slots its cron named and those a run took (run-now takes
 * any minute), back to the oldest run its lease row remembers; before that nothing is known. A slot a
 * claim won whose run went unrecorded is `unrecorded`, also once a later slot was claimed: a run took it.
 */
export function timeline(
  job: Pick<Job, "schedule">,
  lease: JobLease | undefined,
  now: number,
  length = TIMELINE_LENGTH,
  pauses: readonly Pick<Pause, "pausedAt" | "resumedAt">[] = [],
): SlotEntry[] {
  if (!lease) return []
  const runs = runsOf(lease)
  const since = Math.min(lease.lastSlot, runs.at(-1)?.slot ?? lease.lastSlot)
  const expected = job.schedule.previousBefore(slotOf(now - MISSED_AFTER_MS).getTime() + 1, length)
  const unreleased = new Set(unreleasedOf(lease).filter((slot) => slot >= since))
  const slots = new Set([
    lease.lastSlot,
    ...runs.map((run) => run.slot),
    ...unreleased,
    ...expected.filter((slot) => slot >= since),
  ])
  const byNewest = [...slots].sort((a, b) => b - a).slice(0, length)
  return byNewest.map((slot) => {
    const run = runs.find((recorded) => recorded.slot === slot) ?? null
    if (run) return { slot, status: run.outcome, run }
    if (slot !== lease.lastSlot && unreleased.has(slot)) return { slot, status: "unrecorded", run }
    if (slot !== lease.lastSlot) {
      return { slot, status: pauses.some((pause) => pauseHolds(pause, slot)) ? "paused" : "missed", run }
    }
    return { slot, status: lease.leaseUntil !== null && lease.leaseUntil > now ? "running" : "unrecorded", run }
  })
}
