import type { CronSchedule } from "../cron.ts"
import type { JobLease } from "../db/schema.ts"
import { MINUTE_MS } from "../duration.ts"

/** A slot no run has claimed this long after it began counts as missed (the heartbeat fires within seconds). */
export const MISSED_AFTER_MS = MINUTE_MS

/**
 * `alive`: every slot an exclusive job should have claimed since the last fire is still within a
 * minute of its start. `late`: one is missed. `unknown`: no exclusive job is declared, or none has
 * claimed a slot yet, so nothing records the heartbeat.
 */
export type HeartbeatStatus = "alive" | "late" | "unknown"

export interface Heartbeat {
  status: HeartbeatStatus
  /** The newest slot any lease row records: when the heartbeat last fired. */
  lastFiredAt: number | null
  /** The first slot after that which an exclusive job should have claimed, if it has come. */
  missedSlot: number | null
}

/**
 * Whether the heartbeat fires, from what the leases already record (the newest last_slot): late
 * when an exclusive job's slot after the last fire went unclaimed for more than MISSED_AFTER_MS.
 * With the every-minute watchdog on a Worker, that is a last fire more than 2 minutes old.
 */
export function heartbeat(
  jobs: ReadonlyArray<{ exclusive: boolean; schedule: Pick<CronSchedule, "nextAfter"> }>,
  leases: ReadonlyArray<Pick<JobLease, "lastSlot">>,
  now: number,
): Heartbeat {
  const lastFiredAt = leases.reduce<number | null>((newest, lease) => Math.max(newest ?? 0, lease.lastSlot), null)
  const exclusive = jobs.filter((job) => job.exclusive)
  if (lastFiredAt === null || exclusive.length === 0) return { status: "unknown", lastFiredAt, missedSlot: null }
  const next = exclusive
    .map((job) => job.schedule.nextAfter(lastFiredAt))
    .filter((slot): slot is number => slot !== undefined)
  const due = Math.min(...next)
  const missed = next.length > 0 && due < now - MISSED_AFTER_MS
  return { status: missed ? "late" : "alive", lastFiredAt, missedSlot: missed ? due : null }
}
