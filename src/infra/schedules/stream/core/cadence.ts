import { parseCron } from "../../../cron.ts"
import type { Timing } from "../../contract/spec.ts"
import { jittered } from "../jitter.ts"
import type { ScheduleRow } from "../row.ts"
import { clearedAttempt, unclaimed } from "./transition.ts"

/**
 * When the first occurrence of a timing is due on its cadence, seen from `now`. With a window's `startAt`,
 * `every` counts its cadence from startAt and a cron's first time is at or after it: startAt itself when it
 * is still ahead, otherwise the first cadence point after now.
 */
export function firstDue(timing: Timing, now: number, startAt: number | null = null): number {
  switch (timing.kind) {
    case "at":
      return timing.atMs
    case "after":
      return now + timing.afterMs
    case "every": {
      if (startAt === null) return now + timing.everyMs
      if (startAt >= now) return startAt
      return startAt + (Math.floor((now - startAt) / timing.everyMs) + 1) * timing.everyMs
    }
    case "cron": {
      const from = startAt === null ? now : Math.max(now, startAt - 1)
      const next = parseCron(timing.cron, timing.timezone).nextAfter(from)
      // validateDefinition refuses a cron that never fires, so this is a broken invariant.
      if (next === undefined) throw new RangeError(`cron "${timing.cron}" never fires after ${now}`)
      return next
    }
  }
}

/**
 * The occurrence after `row`'s, coalescing missed slots onto the original cadence: the first cadence point after
 * the current one that is not missed. A point is missed only when even the latest due time its jitter allows
 * (its cadence plus the jitter's bound) has passed, so a consumer answering within the gap loses none, jittered
 * or not, and a stream that was down skips what it owed meanwhile. `every` is O(1) arithmetic.
 */
export function nextDue(row: ScheduleRow, now: number): number | undefined {
  const from = Math.max(now - (row.jitterMs ?? 0), row.cadenceAt)
  if (row.kind === "every") {
    const interval = row.intervalMs as number
    return row.cadenceAt + (Math.floor((from - row.cadenceAt) / interval) + 1) * interval
  }
  return parseCron(row.cron as string, row.timezone as string).nextAfter(from)
}

/** True when an occurrence at `cadence` is not delivered: past the window's end, or the count is reached. */
export const over = (row: ScheduleRow, cadence: number) =>
  (row.endAt !== null && cadence > row.endAt) || (row.times !== null && row.delivered >= row.times)

/** The row finished as completed at `now`: no claim, no retry. */
export const finish = (row: ScheduleRow, now: number): ScheduleRow => ({
  ...row,
  state: "completed",
  ...clearedAttempt,
  ...unclaimed,
  finishedAt: now,
})

/** The row's current occurrence put at `cadence`, due then plus its jitter; completed instead when it is over. */
export function placed(row: ScheduleRow, cadence: number, now: number, stream: string): ScheduleRow {
  const at = { ...row, cadenceAt: cadence, nextAt: jittered(stream, row, cadence) }
  return over(row, cadence) ? finish(at, now) : at
}
