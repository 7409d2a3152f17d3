import type { CronSchedule } from "../../cron.ts"
import type { JobLease } from "../../db/job-lease.ts"
import { MINUTE_MS } from "../../duration.ts"

import { MISSED_AFTER_MS } from "../contract/missed-after.ts"

export { MISSED_AFTER_MS }

/**
 * A claimed slot further than this past the clock health reads. The claim refuses a slot more than
 * CLOCK_TOLERANCE_MS past the database's clock, so such a slot says that the database's clock ran ahead
 * (and a replica's with it), or that the reader's own clock runs behind.
 */
export const AHEAD_AFTER_MS = MINUTE_MS

/**
 * `alive`: every slot an exclusive job should have claimed since the last fire is still within a
 * minute of its start. `late`: one is missed. `ahead`: a slot was claimed more than AHEAD_AFTER_MS past
 * the reader's clock (see AHEAD_AFTER_MS): the slots up to it are refused until real time passes it.
 * `unknown`: no exclusive job is declared, or none has claimed a slot yet, so nothing records the heartbeat.
 */
export type HeartbeatStatus = "alive" | "late" | "ahead" | "unknown"

export interface HeartbeatLiveness {
  status: HeartbeatStatus
  /** The newest slot the lease rows record that is not in the future: when the heartbeat last fired. */
  lastFiredAt: number | null
  /** The first slot after that which an exclusive job should have claimed, if it has come. */
  missedSlot: number | null
  /** The furthest slot claimed more than AHEAD_AFTER_MS in the future, if any. */
  aheadSlot: number | null
}

/**
 * Whether the heartbeat fires, from what the leases already record: late when an exclusive job's
 * slot after the last fire went unclaimed for more than MISSED_AFTER_MS, ahead (whatever else) when
 * a slot was claimed in the future; the last fire is the newest slot claimed that is not. With the
 * every-minute watchdog on a Worker, late is a last fire more than 2 minutes old.
 */
export function liveness(
  jobs: ReadonlyArray<{ exclusive: boolean; schedule: Pick<CronSchedule, "nextAfter"> }>,
  leases: ReadonlyArray<Pick<JobLease, "lastSlot">>,
  now: number,
): HeartbeatLiveness {
  const ahead = (slot: number) => slot > now + AHEAD_AFTER_MS
  const aheadSlots = leases.map((lease) => lease.lastSlot).filter(ahead)
  const aheadSlot = aheadSlots.length === 0 ? null : Math.max(...aheadSlots)
  const fired = leases.map((lease) => lease.lastSlot).filter((slot) => !ahead(slot))
  const lastFiredAt = fired.length === 0 ? null : Math.max(...fired)
  const exclusive = jobs.filter((job) => job.exclusive)
  if (lastFiredAt === null || exclusive.length === 0) {
    return { status: aheadSlot === null ? "unknown" : "ahead", lastFiredAt, missedSlot: null, aheadSlot }
  }
  const next = exclusive
    .map((job) => job.schedule.nextAfter(lastFiredAt))
    .filter((slot): slot is number => slot !== undefined)
  const due = Math.min(...next)
  const missed = next.length > 0 && due < now - MISSED_AFTER_MS
  const status = aheadSlot !== null ? "ahead" : missed ? "late" : "alive"
  return { status, lastFiredAt, missedSlot: missed ? due : null, aheadSlot }
}
