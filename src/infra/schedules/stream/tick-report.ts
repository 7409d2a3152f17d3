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
