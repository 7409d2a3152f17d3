import type { JobLease } from "../../db/job-lease.ts"
import { describeError } from "../../log.ts"

/** A job's lease row keeps at least this many of its newest runs. */
export const RUN_HISTORY_LENGTH = 20
/** A run's error is cut to this many characters in its record. */
export const RUN_ERROR_MAX = 500
/** What a run may report through ctx.report, as JSON. */
export const RUN_SUMMARY_MAX_BYTES = 1_024

/** How a run that owned its slot ended (a skipped run owned nothing and records nothing). */
export type RunOutcome = "ran" | "failed" | "timed-out"

/** One run as its release records it; times are epoch milliseconds. */
export interface RunRecord {
  /** The slot it ran. */
  slot: number
  /** The run's id, the lease's holder. */
  runId: string
  /** How it ended. */
  outcome: RunOutcome
  /** How long it ran, in milliseconds. */
  ms: number
  /** When its release was written. */
  finishedAt: number
  /** What it threw, cut to 500 characters; null when it ran. */
  error: string | null
}

/**
 * What became of a slot: a recorded outcome; `running` (claimed, its lease still held); `unrecorded`
 * (claimed, but its run ended without a record: the release failed or the Worker died); `missed`
 * (the cron named it but no run claimed it: the heartbeat did not fire, the claim failed, or an
 * earlier run still held the lease); `paused` (the job was paused then, so the heartbeat skipped it).
 */
export type SlotStatus = RunOutcome | "running" | "unrecorded" | "missed" | "paused"

/** One of a job's newest slots as admin shows it: what became of it, and its run if one was recorded. */
export interface SlotEntry {
  /** The slot (epoch milliseconds of its minute). */
  slot: number
  /** What became of it. */
  status: SlotStatus
  /** The run recorded for it, or null (running, unrecorded, missed, or older than the 20 runs kept). */
  run: RunRecord | null
}

/** What the release writes besides ending the lease: the record, and the run's reported summary (JSON text). */
export interface RunEnding {
  record: RunRecord
  summary: string | null
}

/**
 * A run's error as its record keeps it: cut to RUN_ERROR_MAX, each NUL replaced by U+FFFD (PostgreSQL refuses a
 * NUL in text, and one refused statement would leave every run of its release batch unrecorded).
 */
export const cutError = (error: string): string => {
  const text = error.replaceAll("\0", "\uFFFD")
  return text.length > RUN_ERROR_MAX ? `${text.slice(0, RUN_ERROR_MAX - 1)}…` : text
}

/**
 * The summary a run reports, as the JSON text its release stores: a plain JSON object of at most
 * RUN_SUMMARY_MAX_BYTES; throws a RangeError naming `report` otherwise.
 */
export function encodeSummary(summary: unknown): string {
  let text: string | undefined
  try {
    text =
      typeof summary === "object" && summary !== null && !Array.isArray(summary) ? JSON.stringify(summary) : undefined
  } catch (error) {
    throw new RangeError(`report: the summary is not JSON (${describeError(error)})`)
  }
  if (text === undefined) throw new RangeError("report: the summary must be a JSON object")
  const bytes = new TextEncoder().encode(text).byteLength
  if (bytes > RUN_SUMMARY_MAX_BYTES) {
    throw new RangeError(`report: the summary is ${bytes} bytes of JSON, more than ${RUN_SUMMARY_MAX_BYTES}`)
  }
  return text
}

/** A lease row's recorded runs, newest first; a row written before the run history knows none. */
export function runsOf(lease: Pick<JobLease, "runHistory"> | undefined): RunRecord[] {
  if (!lease?.runHistory) return []
  const runs = JSON.parse(lease.runHistory) as RunRecord[]
  return runs.reverse()
}

/** A lease row's last run, from its last_* columns, or null before its first recorded one. */
export function lastRunOf(lease: JobLease | undefined): RunRecord | null {
  if (!lease || lease.lastRunSlot === null || lease.lastRunId === null) return null
  return {
    slot: lease.lastRunSlot,
    runId: lease.lastRunId,
    outcome: lease.lastOutcome as RunOutcome,
    ms: lease.lastMs ?? 0,
    finishedAt: lease.lastFinishedAt ?? 0,
    error: lease.lastError,
  }
}

/** The summary the last run reported, or null. */
export const summaryOf = (lease: Pick<JobLease, "lastSummary"> | undefined): Record<string, unknown> | null =>
  lease?.lastSummary ? (JSON.parse(lease.lastSummary) as Record<string, unknown>) : null
