import type { EventDraft, ScheduleEvent } from "../contract/schedule-events.ts"
import { setLineOf, setOf } from "./set-line.ts"

/**
 * One event as a line of its schedule's row (row-events.ts): a JSON array. The one every delivery
 * writes, `schedule/fired`, is short and positional, `[seq, at, "f", occurrence, attempt, lateByMs,
 * nextAt - at, completed ? 1 : 0]`, so that a busy recurring row keeps its newest events within the
 * part of a row SQLite stores in its page (about 1 KB in a WITHOUT ROWID table; past it the row spills
 * to overflow pages, and every write of it costs twice the time). The one every schedule is created
 * with, `schedule/set`, is short too (set-line.ts, schema version 8): it was half of a pending
 * schedule's stored bytes. Any other event, or one whose data has another shape, is `[seq, at, type, data]`.
 */

const FIRED = ["occurrence", "attempt", "lateByMs", "nextAt", "state"]

/** True when `data` is a fired event's, its fields in FIRED's order, numbers but a state of scheduled or completed. */
const shaped = (data: Record<string, unknown>) => {
  const own = Object.keys(data)
  return (
    own.length === FIRED.length &&
    own.every((key, i) => key === FIRED[i] && (key === "state" || Number.isFinite(data[key]))) &&
    (data.state === "scheduled" || data.state === "completed")
  )
}

/** The line of an event numbered `seq`, appended at `at`. */
export function lineOf(seq: number, at: number, { type, data }: EventDraft): string {
  if (type === "schedule/set") return setLineOf(seq, at, data) ?? JSON.stringify([seq, at, type, data])
  if (type !== "schedule/fired" || !shaped(data)) return JSON.stringify([seq, at, type, data])
  const completed = data.state === "completed" ? 1 : 0
  return JSON.stringify([
    seq,
    at,
    "f",
    data.occurrence,
    data.attempt,
    data.lateByMs,
    (data.nextAt as number) - at,
    completed,
  ])
}

/** The event of schedule `scheduleId` that `line` holds. */
export function eventOf(scheduleId: string, line: string): ScheduleEvent {
  const [seq, at, kind, ...rest] = JSON.parse(line) as [number, number, string, ...unknown[]]
  if (kind === "s") return { seq, at, scheduleId, type: "schedule/set", data: setOf(at, rest) }
  if (kind !== "f")
    return { seq, at, scheduleId, type: kind as ScheduleEvent["type"], data: rest[0] as Record<string, unknown> }
  const [occurrence, attempt, lateByMs, nextIn, completed] = rest as number[]
  const state = completed ? "completed" : "scheduled"
  const data = { occurrence, attempt, lateByMs, nextAt: at + (nextIn as number), state }
  return { seq, at, scheduleId, type: "schedule/fired", data }
}
