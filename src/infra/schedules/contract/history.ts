/** A point of a stream's history (the stream's rollup, stream/rollup.ts); lateness in ms, median and p99 from its histogram. */
export interface DeliveryPoint {
  /** The minute's or hour's start, in epoch milliseconds. */
  at: number
  /** Attempts that delivered, backfilled ones included. */
  delivered: number
  /** Of `delivered`, the occurrences a backfill created: due in the past on purpose, so in no lateness figure. */
  backfilled: number
  /** Attempts that failed and will be retried. */
  retried: number
  /** Attempts that failed their schedule (terminal, or out of attempts). */
  failed: number
  /** The median lateness of the attempts, or null when none. */
  lateMedianMs: number | null
  /** The 99th percentile of their lateness, or null when none. */
  lateP99Ms: number | null
  /** The largest lateness, or null when none. */
  lateMaxMs: number | null
}

/** The two spans the history is kept at: the last day per minute, the last 30 days per hour. */
export type HistoryRange = "day" | "month"

/** A stream's history over `range`, oldest first: only the minutes or hours in which an answer was settled. */
export interface StreamHistory {
  /** The stream's name. */
  stream: string
  /** The stream's clock when it answered. */
  now: number
  /** The span it covers. */
  range: HistoryRange
  /** How far apart points are: a minute for a day, an hour for a month. */
  stepMs: number
  /** The points, oldest first. */
  points: DeliveryPoint[]
}
