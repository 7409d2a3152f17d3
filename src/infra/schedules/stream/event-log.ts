import { EVENT_LOG_LIMIT, type EventDraft, type ScheduleEvent } from "../client/events.ts"
import { MAX_BINDINGS, statementOf } from "./bindings.ts"

type Exec = <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]) => T[]

/** Six bound values an event, within the statement's MAX_BINDINGS. */
const EVENTS_PER_STATEMENT = Math.floor(MAX_BINDINGS / 6)

/** Event `seq` lives in slot (seq - 1) % EVENT_LOG_LIMIT: the log is a ring, so seqs 1..N fill slots 0..N-1. */
export const slotOf = (seq: number) => (seq - 1) % EVENT_LOG_LIMIT

/** The insert of `count` events (statementOf: built once per count). */
const insertOf = (count: number) =>
  statementOf(
    `events ${count}`,
    () => `INSERT INTO events (slot, seq, at, schedule_id, type, data) VALUES ${Array.from({ length: count }, () => "(?, ?, ?, ?, ?, ?)").join(", ")}
      ON CONFLICT (slot) DO UPDATE SET seq = excluded.seq, at = excluded.at, schedule_id = excluded.schedule_id,
        type = excluded.type, data = excluded.data`,
  )

/**
 * A stream's bounded event log: a ring of EVENT_LOG_LIMIT slots where each append overwrites
 * the oldest event in place, so keeping the bound costs one row written per event and no pruning.
 */
export class EventLog {
  /** The newest seq, found once per object life (a binary search) and kept while transactions commit. */
  private newest: number | undefined

  constructor(private readonly exec: Exec) {}

  /** Call inside the transaction that writes the events' row. */
  append(events: readonly EventDraft[], now: number): void {
    this.appendAll(events.map((event) => ({ event, at: now })))
  }

  /** Appends events each at its own time, a statement per EVENTS_PER_STATEMENT. */
  appendAll(events: ReadonlyArray<{ event: EventDraft; at: number }>): void {
    if (events.length === 0) return
    let seq = this.newest ?? this.findNewest()
    // Six values an event, pushed flat: no array per event.
    const values: SqlStorageValue[] = []
    for (const { event, at } of events) {
      seq++
      values.push(slotOf(seq), seq, at, event.scheduleId, event.type, JSON.stringify(event.data))
    }
    for (let first = 0; first < events.length; first += EVENTS_PER_STATEMENT) {
      const count = Math.min(EVENTS_PER_STATEMENT, events.length - first)
      this.exec(insertOf(count), ...values.slice(first * 6, (first + count) * 6))
    }
    this.newest = seq
  }

  /** A rolled-back transaction may have appended: the newest seq is looked up again. */
  forget(): void {
    this.newest = undefined
  }

  /** Newest first, walking the ring down from the newest slot; `before` pages by seq. */
  read(options: { scheduleId?: string; limit: number; before?: number }): ScheduleEvent[] {
    const newest = this.newest ?? this.findNewest()
    const pivot = newest === 0 ? -1 : slotOf(newest)
    const filters = [
      ...(options.scheduleId === undefined ? [] : [["schedule_id = ?", options.scheduleId] as const]),
      ...(options.before === undefined ? [] : [["seq < ?", options.before] as const]),
    ]
    const page = (range: string, limit: number) =>
      this.exec<{ seq: number; at: number; schedule_id: string; type: string; data: string }>(
        `SELECT seq, at, schedule_id, type, data FROM events
         WHERE ${[range, ...filters.map(([clause]) => clause)].join(" AND ")} ORDER BY slot DESC LIMIT ?`,
        pivot,
        ...filters.map(([, value]) => value),
        limit,
      )
    const rows = page("slot <= ?", options.limit)
    if (rows.length < options.limit) rows.push(...page("slot > ?", options.limit - rows.length))
    return rows.map((r) => ({
      seq: r.seq,
      at: r.at,
      scheduleId: r.schedule_id,
      type: r.type as ScheduleEvent["type"],
      data: JSON.parse(r.data),
    }))
  }

  /**
   * Slots 0..k hold the current lap's seqs, ascending from slot 0's; later slots hold the
   * previous lap (smaller seqs) or nothing. So about 14 point reads find the newest, not a scan.
   */
  private findNewest(): number {
    const seqAt = (slot: number) => this.exec<{ seq: number }>("SELECT seq FROM events WHERE slot = ?", slot)[0]?.seq
    const first = seqAt(0)
    if (first === undefined) return 0
    let low = 0
    let high = EVENT_LOG_LIMIT - 1
    while (low < high) {
      const middle = Math.ceil((low + high) / 2)
      const seq = seqAt(middle)
      if (seq !== undefined && seq > first) low = middle
      else high = middle - 1
    }
    this.newest = first + low
    return this.newest
  }
}
