/** A point of a stream's history (the stream's rollup, stream/rollup.ts); lateness in ms, median and p99 from its histogram. */
export interface DeliveryPoint {
  at: number
  delivered: number
  retried: number
  failed: number
  lateMedianMs: number | null
  lateP99Ms: number | null
  lateMaxMs: number | null
}

/** The two spans the history is kept at: the last day per minute, the last 30 days per hour. */
export type HistoryRange = "day" | "month"

/** A stream's history over `range`, oldest first: only the minutes or hours in which an answer was settled. */
export interface StreamHistory {
  stream: string
  now: number
  range: HistoryRange
  stepMs: number
  points: DeliveryPoint[]
}
