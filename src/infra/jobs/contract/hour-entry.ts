import type { RunOutcome } from "./record.ts"

const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS

/** How a slot's run ended, as an hour row counts it: `skipped` when its claim answered too late for it to run. */
export type HourOutcome = RunOutcome | "skipped"

/**
 * Why a slot was skipped, as its hour entry keeps it: no room in its heartbeat and no overflow queue; an earlier
 * slot's run still held the lease; a later slot was claimed first (a queue message delivered late, or a slot of
 * one job behind another in a queue batch); its claim answered too late for it to run; the Queue refused its hand-off.
 */
export type SkipReason = "over capacity" | "lease held" | "slot taken" | "claim timed out" | "queue refused"

/** One run as its hour row keeps it; a skipped slot with its reason when one was written (0.2.0's have none). */
export interface HourEntry {
  slot: number
  outcome: HourOutcome
  ms: number
  reason?: SkipReason
}

const LETTER: Record<HourOutcome, string> = { ran: "r", failed: "f", "timed-out": "t", skipped: "s" }
const OUTCOME_OF: Record<string, HourOutcome> = { r: "ran", f: "failed", t: "timed-out", s: "skipped" }

/** The reasons an entry may keep, each written as its first letter (unique among them). */
const REASONS: readonly SkipReason[] = ["over capacity", "lease held", "slot taken", "claim timed out", "queue refused"]

/**
 * `minute:letter:ms`, and `:reason` for a skipped slot: the run's minute within its hour, its outcome's letter,
 * its duration. A reader that knows three fields (0.2.0's) reads a skipped entry with a reason as skipped.
 */
export const entryText = ({ slot, outcome, ms, reason }: HourEntry) =>
  `${Math.floor((slot % HOUR_MS) / MINUTE_MS)}:${LETTER[outcome]}:${Math.round(ms)}${reason ? `:${reason[0]}` : ""}`

/** An hour row's `runs` text (entryText entries, comma-separated) as its runs; an entry it cannot read is left out. */
export function entriesOf(hour: number, runs: string): HourEntry[] {
  const entries: HourEntry[] = []
  for (const entry of runs.split(",")) {
    const [minute, letter, ms, why] = entry.split(":")
    const outcome = OUTCOME_OF[letter as string]
    const reason = why ? REASONS.find((known) => known[0] === why) : undefined
    if (outcome)
      entries.push({ slot: hour + Number(minute) * MINUTE_MS, outcome, ms: Number(ms), ...(reason && { reason }) })
  }
  return entries
}
