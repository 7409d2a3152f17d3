import { logLine } from "../../log.ts"

/** What one tick did: its counts, the alarm it left, and the rows it read and wrote. */
export interface TickReport {
  now: number
  claimed: number
  delivered: number
  /** Failed attempts that will be retried, and occurrences skipped by maxAttempts. */
  retried: number
  failed: number
  /** Results the settlement fence refused: they wrote nothing. */
  stale: number
  /** Deliveries still running when the tick yielded; they settle on their own. */
  inFlight: number
  /** Finished rows deleted because they fell out of the stream's retention window. */
  swept: number
  alarm: number | null
  error?: string
  rowsRead: number
  rowsWritten: number
}

/** The reports of one alarm's batches as one: counts and rows summed; the alarm, in-flight and error of the last. */
export function summed(first: TickReport, next: TickReport): TickReport {
  const { error, ...rest } = next
  return {
    ...rest,
    now: first.now,
    claimed: first.claimed + next.claimed,
    delivered: first.delivered + next.delivered,
    retried: first.retried + next.retried,
    failed: first.failed + next.failed,
    stale: first.stale + next.stale,
    swept: first.swept + next.swept,
    rowsRead: first.rowsRead + next.rowsRead,
    rowsWritten: first.rowsWritten + next.rowsWritten,
    ...(error === undefined ? {} : { error }),
  }
}

/**
 * The one `schedule.tick` line of an alarm (its `batches` summed) or of a tick() call, when it
 * claimed or swept something: a line per invocation, not per batch of 32, keeps a backlog's
 * logs within what Workers Logs keeps of one invocation.
 */
export function logTicks(stream: string | undefined, report: TickReport, batches: number): void {
  if (report.claimed > 0 || report.swept > 0) logLine("info", "schedule.tick", { stream, ...report, batches })
}
