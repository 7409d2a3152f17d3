import type { DeliveryPoint } from "../contract/history.ts"
import type { DeliveryResult } from "./core/settle.ts"
import { changed, type Transition } from "./core/transition.ts"

export const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS
/** Per-minute rows cover the last day: a ring of this many minutes. */
export const MINUTES_KEPT = 1_440
/** Per-hour rows cover the last 30 days. */
export const HOURS_KEPT = 720

/**
 * The upper bounds (ms, exclusive) of the lateness histogram's buckets: a delivery late by less than
 * LATE_BOUNDS[i], and not less than the bound before, counts in bucket i. A median or p99 read from
 * it is the bucket's bound (capped by the exact max): at most its bucket's width above the truth.
 */
export const LATE_BOUNDS = [
  5,
  10,
  25,
  50,
  100,
  250,
  500,
  1_000,
  2_500,
  5_000,
  10_000,
  30_000,
  60_000,
  300_000,
  3_600_000,
  Infinity,
] as const

/** A settled batch's answers that wrote (a stale one wrote nothing and is not counted), at the latest answer's time. */
export interface Tally {
  at: number
  delivered: number
  retried: number
  failed: number
  /** Each delivered answer's lateness (delivered at minus due at), ms; a backfilled occurrence's is not lateness. */
  late: number[]
}

/**
 * What a settled batch adds to the stream's history: a delivery, a retry (the occurrence waits for
 * its backoff) or a failure (the schedule stopped in `failed`), as the tick's report counts them.
 * Undefined when no answer wrote.
 */
export function tallyOf(
  answers: ReadonlyArray<{ result: DeliveryResult; now: number }>,
  transitions: readonly Transition[],
): Tally | undefined {
  const tally: Tally = { at: 0, delivered: 0, retried: 0, failed: 0, late: [] }
  let counted = 0
  answers.forEach(({ result, now }, i) => {
    const transition = transitions[i]
    if (transition === undefined || !changed(transition)) return
    counted++
    tally.at = Math.max(tally.at, now)
    if (result.status === "delivered") {
      tally.delivered++
      // A backfilled occurrence was due in the past on purpose: delivered, but its age is not lateness.
      if (!transition.row?.backfillOf) tally.late.push(result.lateByMs)
    } else if (transition.row?.state === "failed") tally.failed++
    else tally.retried++
  })
  return counted === 0 ? undefined : tally
}

/** One row of the history, a minute's or an hour's: counts, the exact max lateness and the histogram. */
export interface RollupRow {
  at: number
  delivered: number
  retried: number
  failed: number
  lateMax: number
  /** Deliveries per LATE_BOUNDS bucket. */
  buckets: number[]
}

export const bucketOf = (ms: number) => LATE_BOUNDS.findIndex((bound) => ms < bound)

/** The minute row a tally adds to: the one upsert a settled batch writes. */
export function minuteRowOf(tally: Tally): RollupRow {
  const buckets = LATE_BOUNDS.map(() => 0)
  for (const ms of tally.late) buckets[bucketOf(ms)] = (buckets[bucketOf(ms)] as number) + 1
  const { delivered, retried, failed } = tally
  return { at: floorTo(tally.at, MINUTE_MS), delivered, retried, failed, lateMax: Math.max(0, ...tally.late), buckets }
}

export const floorTo = (ms: number, step: number) => ms - (((ms % step) + step) % step)

/** The q-quantile of a histogram's deliveries (q in 0..1): its bucket's upper bound, never above `max`; null when empty. */
export function quantileOf(buckets: readonly number[], q: number, max: number): number | null {
  const total = buckets.reduce((sum, n) => sum + n, 0)
  if (total === 0) return null
  const rank = Math.max(1, Math.ceil(q * total))
  let seen = 0
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i] as number
    if (seen >= rank) return Math.min(LATE_BOUNDS[i] as number, max)
  }
  return max
}

export function pointOf(row: RollupRow): DeliveryPoint {
  // Only a backfilled delivery stays out of the histogram (tallyOf), so the difference is the backfilled count.
  const timed = row.buckets.reduce((sum, n) => sum + n, 0)
  return {
    at: row.at,
    delivered: row.delivered,
    backfilled: Math.max(0, row.delivered - timed),
    retried: row.retried,
    failed: row.failed,
    lateMedianMs: quantileOf(row.buckets, 0.5, row.lateMax),
    lateP99Ms: quantileOf(row.buckets, 0.99, row.lateMax),
    lateMaxMs: timed > 0 ? row.lateMax : null,
  }
}

/** Rows summed into one at `at` (the max of their maxima): minutes into their hour. */
export function summed(at: number, rows: readonly RollupRow[]): RollupRow {
  const total: RollupRow = { at, delivered: 0, retried: 0, failed: 0, lateMax: 0, buckets: LATE_BOUNDS.map(() => 0) }
  for (const row of rows) {
    total.delivered += row.delivered
    total.retried += row.retried
    total.failed += row.failed
    total.lateMax = Math.max(total.lateMax, row.lateMax)
    row.buckets.forEach((n, i) => {
      total.buckets[i] = (total.buckets[i] as number) + n
    })
  }
  return total
}

/**
 * The month's hours: the folded hour rows, and the minutes not folded yet (every minute after the
 * newest hour row) summed into their hours; only those within 30 days of `now`, oldest first.
 */
export function hoursOf(hours: readonly RollupRow[], minutes: readonly RollupRow[], now: number): RollupRow[] {
  const since = floorTo(now, HOUR_MS) - (HOURS_KEPT - 1) * HOUR_MS
  const folded = hours.reduce((newest, row) => Math.max(newest, row.at + HOUR_MS), since)
  const open = new Map<number, RollupRow[]>()
  for (const row of minutes) {
    if (row.at < folded || row.at > now) continue
    const hour = floorTo(row.at, HOUR_MS)
    open.set(hour, [...(open.get(hour) ?? []), row])
  }
  const unfolded = [...open].map(([hour, rows]) => summed(hour, rows))
  return [...hours.filter((row) => row.at >= since), ...unfolded].sort((a, b) => a.at - b.at)
}
