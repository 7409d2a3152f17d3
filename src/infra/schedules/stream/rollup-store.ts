import type { DeliveryPoint, HistoryRange } from "../contract/history.ts"
import type { Exec } from "./bindings.ts"
import {
  floorTo,
  HOUR_MS,
  HOURS_KEPT,
  hoursOf,
  LATE_BOUNDS,
  MINUTE_MS,
  MINUTES_KEPT,
  minuteRowOf,
  pointOf,
  type RollupRow,
  type Tally,
} from "./rollup.ts"

/** Old hours deleted by one fold, at most: a fold adds at most 24, so the month stays bounded. */
export const HOURS_SWEPT = 32

const BUCKETS = LATE_BOUNDS.map((_, i) => `l${i}`)
const SUMS = ["delivered", "retried", "failed", ...BUCKETS]
/** A row's values in this order (schema.ts, version 5). */
const COLUMNS = ["delivered", "retried", "failed", "late_max", ...BUCKETS]
const list = (items: readonly string[]) => items.join(", ")

// A ring slot holding an older minute starts afresh: its minute was folded into its hour before (fold()).
const ADD = `INSERT INTO delivery_minutes (slot, minute, ${list(COLUMNS)}) VALUES (${list(["?", "?", ...COLUMNS.map(() => "?")])})
  ON CONFLICT (slot) DO UPDATE SET ${list(SUMS.map((c) => `${c} = CASE WHEN minute = excluded.minute THEN ${c} ELSE 0 END + excluded.${c}`))},
  late_max = CASE WHEN minute = excluded.minute THEN max(late_max, excluded.late_max) ELSE excluded.late_max END,
  minute = excluded.minute`

// Two ranges of ring slots, through the primary key; a fold is a sum of complete minutes, so running it again writes the same.
const FOLD = `INSERT INTO delivery_hours (hour, ${list(COLUMNS)})
  SELECT minute - minute % ${HOUR_MS}, ${list(COLUMNS.map((c) => (c === "late_max" ? "max(late_max)" : `sum(${c})`)))}
  FROM (SELECT * FROM delivery_minutes WHERE slot BETWEEN ? AND ? UNION ALL SELECT * FROM delivery_minutes WHERE slot BETWEEN ? AND ?)
  WHERE minute >= ? AND minute < ? GROUP BY 1
  ON CONFLICT (hour) DO UPDATE SET ${list(COLUMNS.map((c) => `${c} = excluded.${c}`))}`

const SWEEP = `DELETE FROM delivery_hours WHERE hour IN
  (SELECT hour FROM delivery_hours WHERE hour < ? ORDER BY hour LIMIT ${HOURS_SWEPT})`

const ringSlot = (minute: number) => Math.floor(minute / MINUTE_MS) % MINUTES_KEPT

const rowOf = (at: number, r: Record<string, SqlStorageValue>): RollupRow => ({
  at,
  delivered: r.delivered as number,
  retried: r.retried as number,
  failed: r.failed as number,
  lateMax: r.late_max as number,
  buckets: BUCKETS.map((column) => r[column] as number),
})

/**
 * A stream's history of deliveries (ARCHITECTURE.md, "History"): a ring of MINUTES_KEPT minute rows,
 * where each settled batch adds to its minute's row, one row written per batch whatever its size;
 * and a row per hour for HOURS_KEPT hours, folded from the minute rows once per hour. The ring
 * needs no delete; old hours are deleted in bounded batches by the fold, oldest first through the
 * primary key. Nothing is scanned: the fold reads only its hour's ring slots.
 */
export class DeliveryRollup {
  /** Every minute before this was folded into its hour (the newest hour row's end); undefined until read. */
  private foldedBefore: number | undefined

  constructor(private readonly exec: Exec) {}

  /** Adds a settled batch's tally to its minute (nothing when no answer wrote); call inside the settlement's transaction. */
  add(tally: Tally | undefined): void {
    if (tally === undefined) return
    const row = minuteRowOf(tally)
    const folded = this.fold(floorTo(row.at, HOUR_MS))
    this.exec(ADD, ringSlot(row.at), row.at, row.delivered, row.retried, row.failed, row.lateMax, ...row.buckets)
    this.foldedBefore = folded
  }

  /** After a rolled-back transaction: what was folded is read again. */
  forget(): void {
    this.foldedBefore = undefined
  }

  /**
   * Folds every complete minute before `hour` not folded yet into its hour row, then deletes hours
   * older than HOURS_KEPT; answers the new fold point. Before a minute's ring slot is written again
   * (a day later) its hour is always folded, since the write that reuses it folds first.
   */
  private fold(hour: number): number {
    this.foldedBefore ??= this.newestHourEnd()
    const from = this.foldedBefore
    if (hour <= from) return from
    // A day or more to fold: every slot of the ring; otherwise the slots from..hour, which may wrap.
    const whole = hour - from >= MINUTES_KEPT * MINUTE_MS
    const first = whole ? 0 : ringSlot(from)
    const last = whole ? MINUTES_KEPT - 1 : ringSlot(hour - MINUTE_MS)
    const ranges = first <= last ? [first, last, 1, 0] : [first, MINUTES_KEPT - 1, 0, last]
    this.exec(FOLD, ...ranges, from, hour)
    this.exec(SWEEP, hour - (HOURS_KEPT - 1) * HOUR_MS)
    return hour
  }

  private newestHourEnd(): number {
    const [row] = this.exec("SELECT hour FROM delivery_hours ORDER BY hour DESC LIMIT 1")
    return row === undefined ? 0 : (row.hour as number) + HOUR_MS
  }

  /** The history over `range` at `now`, oldest first: the last day's minutes, or the last 30 days' hours. */
  read(range: HistoryRange, now: number): DeliveryPoint[] {
    const minutes = this.exec(`SELECT minute, ${list(COLUMNS)} FROM delivery_minutes`).map((r) =>
      rowOf(r.minute as number, r),
    )
    if (range === "day") {
      const since = now - MINUTES_KEPT * MINUTE_MS
      return minutes
        .filter((row) => row.at > since && row.at <= now)
        .sort((a, b) => a.at - b.at)
        .map(pointOf)
    }
    const since = floorTo(now, HOUR_MS) - (HOURS_KEPT - 1) * HOUR_MS
    const hours = this.exec(`SELECT hour, ${list(COLUMNS)} FROM delivery_hours WHERE hour >= ?`, since).map((r) =>
      rowOf(r.hour as number, r),
    )
    return hoursOf(hours, minutes, now).map(pointOf)
  }
}
