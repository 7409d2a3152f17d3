import type { RunOutcome } from "./record.ts"

const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS

/** How a slot's run ended, as an hour row counts it: `skipped` when its claim answered too late for it to run. */
export type HourOutcome = RunOutcome | "skipped"

/** One run as its hour row keeps it. */
export interface HourEntry {
  slot: number
  outcome: HourOutcome
  ms: number
}

const LETTER: Record<HourOutcome, string> = { ran: "r", failed: "f", "timed-out": "t", skipped: "s" }
const OUTCOME_OF: Record<string, HourOutcome> = { r: "ran", f: "failed", t: "timed-out", s: "skipped" }

/** `minute:letter:ms`: the run's minute within its hour, its outcome's letter, its duration. */
export const entryText = ({ slot, outcome, ms }: HourEntry) =>
  `${Math.floor((slot % HOUR_MS) / MINUTE_MS)}:${LETTER[outcome]}:${Math.round(ms)}`

/** An hour row's `runs` text (entryText entries, comma-separated) as its runs; an entry it cannot read is left out. */
export function entriesOf(hour: number, runs: string): HourEntry[] {
  const entries: HourEntry[] = []
  for (const entry of runs.split(",")) {
    const [minute, letter, ms] = entry.split(":")
    const outcome = OUTCOME_OF[letter as string]
    if (outcome) entries.push({ slot: hour + Number(minute) * MINUTE_MS, outcome, ms: Number(ms) })
  }
  return entries
}
