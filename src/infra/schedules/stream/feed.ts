import { REMOVED_LIMIT, type ScheduleEvent } from "../client/events.ts"
import type { Exec } from "./bindings.ts"
import { eventsIn } from "./history.ts"

/** A query's rows one at a time, so that a reader may stop early. */
type Cursor = <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]) => Iterable<T>

/**
 * A stream's events, read back: each schedule's history (history.ts), and the histories of the newest
 * REMOVED_LIMIT schedules removed (a row each, written by the removal that deletes the schedule's row).
 */
export class EventFeed {
  constructor(
    private readonly exec: Exec,
    private readonly cursor: Cursor,
  ) {}

  /** Keeps a removed schedule's history (its removal's event last); call inside the removal's transaction. */
  remember(scheduleId: string, history: string, seq: number): void {
    this.exec("INSERT INTO removed (seq, schedule_id, history) VALUES (?, ?, ?)", seq, scheduleId, history)
    // Past the bound, the oldest removal goes: at most one row, found through the rowid.
    this.exec(
      "DELETE FROM removed WHERE seq <= (SELECT seq FROM removed ORDER BY seq DESC LIMIT 1 OFFSET ?)",
      REMOVED_LIMIT,
    )
  }

  /** Newest first; `before` pages by seq. One schedule's: its row and its removals. */
  read(options: { scheduleId?: string; limit: number; before?: number }): ScheduleEvent[] {
    const before = options.before ?? Number.POSITIVE_INFINITY
    const { scheduleId, limit } = options
    if (scheduleId !== undefined) {
      const histories = [
        ...this.exec<{ history: string }>("SELECT history FROM schedules WHERE id = ?", scheduleId),
        ...this.exec<{ history: string }>("SELECT history FROM removed WHERE schedule_id = ?", scheduleId),
      ]
      return newest(
        histories.flatMap(({ history }) => eventsIn(scheduleId, history)),
        before,
        limit,
      )
    }
    // Every row is read (a sort on the newest seq each holds), each history parsed only while it may hold one
    // of the `limit` newest: a row's events are all at or below its newest seq.
    const found: ScheduleEvent[] = []
    const sources = [
      this.cursor<{ id: string; newest: number; history: string }>(
        "SELECT id, event_seq AS newest, history FROM schedules WHERE event_seq IS NOT NULL ORDER BY event_seq DESC",
      ),
      this.cursor<{ id: string; newest: number; history: string }>(
        "SELECT schedule_id AS id, seq AS newest, history FROM removed ORDER BY seq DESC",
      ),
    ]
    for (const source of sources) {
      for (const { id, newest: top, history } of source) {
        const floor = found.length >= limit ? (found[limit - 1] as ScheduleEvent).seq : Number.NEGATIVE_INFINITY
        if (top <= floor) break
        found.push(...eventsIn(id, history).filter((event) => event.seq < before && event.seq > floor))
        found.sort((a, b) => b.seq - a.seq)
        found.length = Math.min(found.length, limit)
      }
    }
    return found
  }
}

/** The `limit` newest of `events` below `before`, newest first. */
function newest(events: ScheduleEvent[], before: number, limit: number): ScheduleEvent[] {
  return events
    .filter((event) => event.seq < before)
    .sort((a, b) => b.seq - a.seq)
    .slice(0, limit)
}
