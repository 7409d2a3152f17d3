import type { CronSchedule } from "../../cron.ts"
import { HOUR_MS, type HourOutcome, type SkipReason } from "../contract/hour-entry.ts"
import { MISSED_AFTER_MS } from "./liveness.ts"

const DAY_MS = 24 * HOUR_MS

/**
 * What became of one slot of today: a run's outcome; `missed` (no run took it, once known); `claimed` (the
 * lease's newest slot, with no run recorded yet: running, or ended unrecorded); `due` (still to come, or within a minute of its start); `unknown`
 * (before anything was recorded of the job, so it says nothing); `paused` (no run took it while the job was paused).
 */
export type DaySlotStatus = HourOutcome | "missed" | "paused" | "claimed" | "due" | "unknown"

/** One slot the cron names today (UTC), with its run's duration when one was recorded. */
export interface DaySlot {
  slot: number
  status: DaySlotStatus
  ms: number | null
  /** Why a skipped slot was skipped, when its entry says (0.2.0 wrote none). */
  reason?: SkipReason
}

/**
 * Every slot `schedule` names in the UTC day of `now`, oldest first, each with what became of it: from the
 * runs recorded by slot, the first time anything was recorded of the job (`knownSince`) and the lease's
 * newest slot. At most 1,440 (a minute cron).
 *
 * @example
 * ```ts
 * daySlots(parseCron("0 * * * *"), runs, knownSince, lease?.lastSlot ?? null, Date.now()) // 24 slots
 * ```
 */
export function daySlots(
  schedule: CronSchedule,
  runs: ReadonlyMap<number, { outcome: HourOutcome; ms: number; reason?: SkipReason }>,
  knownSince: number | null,
  lastSlot: number | null,
  now: number,
  paused: (slot: number) => boolean = () => false,
): DaySlot[] {
  const day = now - (now % DAY_MS)
  const slots: DaySlot[] = []
  for (let hour = day; hour < day + DAY_MS; hour += HOUR_MS) {
    for (const slot of schedule.slotsIn(hour)) {
      const run = runs.get(slot)
      if (run) slots.push({ slot, status: run.outcome, ms: run.ms, reason: run.reason })
      else if (slot === lastSlot) slots.push({ slot, status: "claimed", ms: null })
      else if (slot > now - MISSED_AFTER_MS) slots.push({ slot, status: "due", ms: null })
      else if (paused(slot)) slots.push({ slot, status: "paused", ms: null })
      else if (knownSince === null || slot < knownSince) slots.push({ slot, status: "unknown", ms: null })
      else slots.push({ slot, status: "missed", ms: null })
    }
  }
  return slots
}
