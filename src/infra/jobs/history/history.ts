import type { CronSchedule } from "../../cron.ts"
import type { JobLease } from "../../db/job-lease.ts"
import { MINUTE_MS } from "../../duration.ts"
import { entriesOf, HOUR_MS, type HourEntry, type HourOutcome } from "../contract/hour-entry.ts"
import { type Pause, pauseHolds } from "../contract/pause.ts"
import { type DaySlot, daySlots } from "./day-slots.ts"
import { MISSED_AFTER_MS } from "./liveness.ts"

/** The days of history the admin answers by default, and at most (the rows kept). */
export const HISTORY_DAYS_DEFAULT = 7
export const HISTORY_DAYS_MAX = 30
/** Slots counted as missed between two runs at most: past this, a gap (a long outage) is counted as this many. */
export const MISSED_COUNT_MAX = 1_440

/** A jobs_run_hours row as the history reads it. */
export interface RunHourRow {
  hour: number
  runs: string
}

/**
 * One hour of a job's history. `due`: the slots the cron named in it up to now; `missed`: those of them
 * no run took, once known (after the job's first recorded hour or lease) and past MISSED_AFTER_MS; a
 * run-now slot the cron did not name is a run but no due slot. Durations are of the runs that ran
 * (ran, failed, timed out): the exact median and max, null when none did.
 */
export interface HourPoint {
  hour: number
  due: number
  ran: number
  failed: number
  timedOut: number
  skipped: number
  missed: number
  /** Due slots no run took while the job was paused: skipped by the heartbeat, not missed. */
  paused: number
  medianMs: number | null
  maxMs: number | null
}

/** A job's history, oldest hour first: only the hours with a run, or a due slot since the job's first record. */
export interface JobHistory {
  job: string
  now: number
  days: number
  /** Slots before this are not counted as missed: nothing was recorded of the job before it (null: nothing at all). */
  knownSince: number | null
  hours: HourPoint[]
  /** Every slot of today (UTC), one by one: "did every slot run today" is read off this. */
  today: DaySlot[]
}

const floorHour = (ms: number) => ms - (ms % HOUR_MS)

/** The first hour of the `days` before `now` (the current hour is the last). */
export const historySince = (now: number, days: number) => floorHour(now) - (days * 24 - 1) * HOUR_MS

/** An hour row's runs, by slot: a slot's run outranks a skipped entry of it (a late message's, say), so each slot has one. */
function runsOf(row: RunHourRow) {
  const runs = new Map<number, Omit<HourEntry, "slot">>()
  for (const { slot, ...run } of entriesOf(row.hour, row.runs))
    if (run.outcome !== "skipped" || !runs.has(slot)) runs.set(slot, run)
  return runs
}

const median = (sorted: readonly number[]) => {
  const middle = sorted.length >> 1
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/**
 * A job's hourly history for the `days` before `now`, from its hour rows (any order), the slot of its
 * first recorded run and its lease: due and missed slots from its cron, runs and durations from the rows.
 * Slots before the first run or the lease's slot, whichever is older, are never missed: nothing was known
 * of the job then (a job first run at 11:40 missed nothing from 11:00 to 11:39).
 */
export function jobHistory(
  job: { name: string; schedule: CronSchedule },
  rows: readonly RunHourRow[],
  firstRun: number | null,
  lease: Pick<JobLease, "lastSlot"> | undefined,
  now: number,
  days = HISTORY_DAYS_DEFAULT,
  pauses: readonly Pick<Pause, "pausedAt" | "resumedAt">[] = [],
): JobHistory {
  const paused = (slot: number) => pauses.some((pause) => pauseHolds(pause, slot))
  const since = historySince(now, days)
  const known = [firstRun, lease?.lastSlot].filter((time): time is number => typeof time === "number")
  const knownSince = known.length ? Math.min(...known) : null
  const byHour = new Map(rows.map((row) => [row.hour, runsOf(row)]))
  const hours: HourPoint[] = []
  for (let hour = since; hour <= now; hour += HOUR_MS) {
    const runs = byHour.get(hour) ?? new Map()
    // Before anything was known of the job, a slot was not yet its to run: neither due nor missed.
    const due = job.schedule.slotsIn(hour).filter((slot) => slot <= now && (knownSince === null || slot >= knownSince))
    // The lease's last slot was claimed: running, or ended without a record, but not missed.
    const unrun = due.filter((slot) => slot <= now - MISSED_AFTER_MS && !runs.has(slot) && slot !== lease?.lastSlot)
    const pausedSlots = unrun.filter(paused).length
    const missed = knownSince === null ? 0 : unrun.length - pausedSlots
    // Before anything was recorded of the job, its due slots say nothing: the hour is left out.
    if (
      runs.size === 0 &&
      pausedSlots === 0 &&
      (due.length === 0 || knownSince === null || hour + HOUR_MS <= knownSince)
    )
      continue
    const outcomes = [...runs.values()]
    const ms = outcomes
      .filter((run) => run.outcome !== "skipped")
      .map((run) => run.ms)
      .sort((a, b) => a - b)
    const counted = (outcome: HourOutcome) => outcomes.filter((run) => run.outcome === outcome).length
    hours.push({
      hour,
      due: due.length,
      ran: counted("ran"),
      failed: counted("failed"),
      timedOut: counted("timed-out"),
      skipped: counted("skipped"),
      missed,
      paused: pausedSlots,
      medianMs: ms.length ? median(ms) : null,
      maxMs: ms.length ? (ms.at(-1) as number) : null,
    })
  }
  const runs = new Map([...byHour.values()].flatMap((hour) => [...hour]))
  const today = daySlots(job.schedule, runs, knownSince, lease?.lastSlot ?? null, now, paused)
  return { job: job.name, now, days, knownSince, hours, today }
}

/** Answers of missedBetween by pattern and slots: the runs of one heartbeat mostly ask the same few. */
const missedMemo = new Map<string, number>()
const MISSED_MEMO_MAX = 4_096

/** The slots `schedule` names strictly between two runs' slots (none before a first run), at most MISSED_COUNT_MAX. */
export function missedBetween(schedule: CronSchedule, previous: number | null, slot: number): number {
  // No minute lies between a slot and the next one: croner need not be asked (an every-minute job's steady state).
  if (previous === null || slot - previous <= MINUTE_MS) return 0
  const key = `${schedule.pattern}|${schedule.timezone}|${previous}|${slot}`
  const known = missedMemo.get(key)
  if (known !== undefined) return known
  const missed = countMissed(schedule, previous, slot)
  if (missedMemo.size >= MISSED_MEMO_MAX) missedMemo.clear()
  missedMemo.set(key, missed)
  return missed
}

function countMissed(schedule: CronSchedule, previous: number, slot: number): number {
  let missed = 0
  for (let next = schedule.nextAfter(previous); next !== undefined && next < slot; next = schedule.nextAfter(next)) {
    if (++missed === MISSED_COUNT_MAX) break
  }
  return missed
}
