import { REMOVALS_KEPT, type ScheduleEvent } from "../contract/schedule-events.ts"
import type { Exec } from "./bindings.ts"
import { eventsIn } from "./row-events.ts"

/** A query's rows one at a time, so that a reader may stop early. */
type Cursor = <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]) => Iterable<T>

/**
 * A stream's events, read back: each schedule's, on its row (row-events.ts), and those of the newest
 * REMOVALS_KEPT schedules removed (a row each, written by the removal that deletes the schedule's row).
 */
export class EventFeed {
  constructor(
    private readonly exec: Exec,
    private readonly cursor: Cursor,
  ) {}

  /** Keeps a removed schedule's event lines (its removal's event last); call inside the removal's transaction. */
  remember(scheduleId: string, lines: string, seq: number): void {
    this.exec("INSERT INTO removed (seq, schedule_id, event_lines) VALUES (?, ?, ?)", seq, scheduleId, lines)
    // Past the bound, the oldest removal goes: at most one row, found through the rowid.
    this.exec(
      "DELETE FROM removed WHERE seq <= (SELECT seq FROM removed ORDER BY seq DESC LIMIT 1 OFFSET ?)",
      REMOVALS_KEPT,
    )
  }

  /**
   * Newest first; `before` pages by seq. The rows are read newest event first (a sort on the newest seq
   * each holds: for the whole stream, every row), each one's lines parsed only while they may hold one of
   * the `limit` newest; one schedule's are its row and its removals.
   */
  read(options: { scheduleId?: string; limit: number; before?: number }): ScheduleEvent[] {
    const before = options.before ?? Number.POSITIVE_INFINITY
    const { scheduleId, limit } = options
    const only = scheduleId === undefined ? [] : [scheduleId]
    const found: ScheduleEvent[] = []
    const sources = [
      this.cursor<{ id: string; newest: number; lines: string }>(
        `SELECT id, event_seq AS newest, event_lines AS lines FROM schedules
         WHERE event_seq IS NOT NULL ${only.length ? "AND id = ?" : ""} ORDER BY event_seq DESC`,
        ...only,
      ),
      this.cursor<{ id: string; newest: number; lines: string }>(
        `SELECT schedule_id AS id, seq AS newest, event_lines AS lines FROM removed
         ${only.length ? "WHERE schedule_id = ?" : ""} ORDER BY seq DESC`,
        ...only,
      ),
    ]
    for (const source of sources) {
      for (const { id, newest: top, lines } of source) {
        const floor = found.length >= limit ? (found[limit - 1] as ScheduleEvent).seq : Number.NEGATIVE_INFINITY
        if (top <= floor) break
        found.push(...eventsIn(id, lines).filter((event) => event.seq < before && event.seq > floor))
        found.sort((a, b) => b.seq - a.seq)
        found.length = Math.min(found.length, limit)
      }
    }
    return found
  }
}
