/**
 * What the watchdog's run reports through ctx.report, so that its release stores it with the run
 * and admin's health reads it from there (no write of its own).
 */
export interface WatchSummary {
  /** Streams whose recorded alarm was more than STALE_AFTER_MS past (at most WATCHDOG_BATCH). */
  overdue: number
  nudged: number
  failed: number
  /** The stream whose recorded alarm was furthest past, and by how much, or null when none was. */
  mostOverdue: { stream: string; lagMs: number } | null
}
