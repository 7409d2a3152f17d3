import type { EventDraft, ScheduleEvent } from "../client/events.ts"

/**
 * One event as a line of its schedule's row (row-events.ts): a JSON array. The two a delivery writes
 * are short and positional, so that a busy recurring row keeps its newest events within the part of a
 * row SQLite stores in its page (about 1 KB in a WITHOUT ROWID table; past it the row spills to
 * overflow pages, and every write of it costs twice the time):
 * - `schedule/fired`: `[seq, at, "f", occurrence, attempt, lateByMs, nextAt - at, completed ? 1 : 0]`
 * - `schedule/late`: `[seq, at, "l", occurrence, lateByMs]`
 * Any other event, or one of these whose data has another shape, is `[seq, at, type, data]`.
 */

const FIRED = ["occurrence", "attempt", "lateByMs", "nextAt", "state"]
const LATE = ["occurrence", "lateByMs"]

/** True when `data` has exactly `keys`, in that order, each a finite number (but `state`). */
const shaped = (data: Record<string, unknown>, keys: readonly string[]) => {
  const own = Object.keys(data)
  return (
    own.length === keys.length &&
    own.every((key, i) => key === keys[i] && (key === "state" || Number.isFinite(data[key])))
  )
}

/** The line of an event numbered `seq`, appended at `at`. */
export function lineOf(seq: number, at: number, event: EventDraft): string {
  const data = event.data
  if (
    event.type === "schedule/fired" &&
    shaped(data, FIRED) &&
    (data.state === "scheduled" || data.state === "completed")
  ) {
    const nextAt = (data.nextAt as number) - at
    return JSON.stringify([
      seq,
      at,
      "f",
      data.occurrence,
      data.attempt,
      data.lateByMs,
      nextAt,
      data.state === "completed" ? 1 : 0,
    ])
  }
  if (event.type === "schedule/late" && shaped(data, LATE))
    return JSON.stringify([seq, at, "l", data.occurrence, data.lateByMs])
  return JSON.stringify([seq, at, event.type, data])
}

/** The event of schedule `scheduleId` that `line` holds. */
export function eventOf(scheduleId: string, line: string): ScheduleEvent {
  const [seq, at, kind, ...rest] = JSON.parse(line) as [number, number, string, ...unknown[]]
  if (kind === "f") {
    const [occurrence, attempt, lateByMs, nextAt, completed] = rest as number[]
    const data = {
      occurrence,
      attempt,
      lateByMs,
      nextAt: at + (nextAt as number),
      state: completed ? "completed" : "scheduled",
    }
    return { seq, at, scheduleId, type: "schedule/fired", data }
  }
  if (kind === "l") {
    const [occurrence, lateByMs] = rest as number[]
    return { seq, at, scheduleId, type: "schedule/late", data: { occurrence, lateByMs } }
  }
  return { seq, at, scheduleId, type: kind as ScheduleEvent["type"], data: rest[0] as Record<string, unknown> }
}
