import type { ScheduleEvent } from "../contract/schedule-events.ts"
import type { ScheduleState } from "../contract/states.ts"
import { chunks, type Exec, MAX_BINDINGS, statementOf } from "./bindings.ts"
import { FIELDS, type Field, FULL, LIGHT, PUT, pointUpdate, rowOf, type StoredRow, valuesUpdate } from "./columns.ts"
import type { Change } from "./core/transition.ts"
import { EventFeed } from "./feed.ts"
import { FinishJournal } from "./journal.ts"
import { type ClaimEntry, ClaimLedger } from "./ledger.ts"
import { DeliveryRollup } from "./rollup-store.ts"
import { dueSince, eligibleAt, type ScheduleRow } from "./row.ts"
import { appended, EventSeqs, lineOf } from "./row-events.ts"
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts"

export { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts"

export class SchemaVersionError extends Error {
  override name = "SchemaVersionError"
}

export interface RowCounts {
  rowsRead: number
  rowsWritten: number
}

type SqlRow = Record<string, SqlStorageValue>

/** A transition to write: the row as read in this transaction (none: a new row), the change, and its time. */
export interface Write {
  before?: ScheduleRow
  change: Change
  now: number
}

/** A row to update: as stored, as the transition leaves it, and its events. */
interface Update {
  stored: StoredRow
  row: ScheduleRow
  eventLines: string
  eventSeq: number | null
}

/** The row's own fields are FIELDS' first ROW_FIELDS; then event_seq, written_seq and event_lines, whose mask bits follow. */
const ROW_FIELDS = FIELDS.indexOf("eventSeq")
const EVENT_SEQ = 1 << ROW_FIELDS
const WRITTEN_SEQ = 1 << FIELDS.indexOf("writtenSeq")
const EVENT_LINES = 1 << FIELDS.indexOf("eventLines")

const byEligible = (a: ScheduleRow, b: ScheduleRow) => eligibleAt(a) - eligibleAt(b) || (a.id < b.id ? -1 : 1)

/**
 * The stream's SQLite: synchronous queries, and row counters from every cursor. It hands out rows as the
 * stream sees them, with a batch's claim laid over each row it claimed (ledger.ts), and writes back only
 * the columns a transition changed against the row as stored, with the transition's events on the row
 * (row-events.ts) and a finish in the retention journal (journal.ts).
 */
export class ScheduleStore {
  readonly counts: RowCounts = { rowsRead: 0, rowsWritten: 0 }
  private readonly sql: Exec = (query, ...bindings) => this.exec(query, ...bindings)
  private readonly ledger = new ClaimLedger(this.sql)
  private readonly journal = new FinishJournal(this.sql)
  private readonly feed = new EventFeed(this.sql, (query, ...bindings) => this.cursor(query, ...bindings))
  private readonly seqs = new EventSeqs({ get: (key) => this.meta(key), set: (key, value) => this.setMeta(key, value) })
  /** The stream's history of deliveries: a settlement adds its batch to it (rollup-store.ts). */
  readonly rollup = new DeliveryRollup(this.sql)
  /** The row as stored under each row handed out (the same object, or one with a claim over it). */
  private readonly stored = new WeakMap<ScheduleRow, StoredRow>()

  constructor(private readonly storage: DurableObjectStorage) {}

  exec<T extends SqlRow = SqlRow>(query: string, ...bindings: SqlStorageValue[]): T[] {
    const cursor = this.storage.sql.exec<T>(query, ...bindings)
    return this.counted(cursor, cursor.toArray())
  }

  /** A query's rows one at a time, counted once the reader stops. */
  private *cursor<T extends SqlRow>(query: string, ...bindings: SqlStorageValue[]): Generator<T> {
    const cursor = this.storage.sql.exec<T>(query, ...bindings)
    try {
      yield* cursor
    } finally {
      this.counted(cursor, undefined)
    }
  }

  /** `result`, read from `cursor`, with the cursor's rows added to the counts (final once it is read). */
  private counted<R>(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>, result: R): R {
    this.counts.rowsRead += cursor.rowsRead
    this.counts.rowsWritten += cursor.rowsWritten
    return result
  }

  transaction<T>(work: () => T): T {
    try {
      return this.storage.transactionSync(work)
    } catch (error) {
      this.seqs.forget()
      this.journal.forget()
      this.ledger.forget()
      this.rollup.forget()
      throw error
    }
  }

  /** Brings storage to SCHEMA_VERSION in one transaction, keeping every row; refuses a newer one. */
  migrate(): void {
    this.transaction(() => {
      this.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
      const stored = Number(this.meta("schema_version") ?? 0)
      if (stored > SCHEMA_VERSION) {
        throw new SchemaVersionError(
          `stream storage is at schema version ${stored}, newer than this code's ${SCHEMA_VERSION}; deploy the newer code or restore a backup`,
        )
      }
      for (let version = stored + 1; version <= SCHEMA_VERSION; version++) {
        for (const statement of (MIGRATIONS[version] as string).split(";").map((s) => s.trim())) {
          if (statement) this.exec(statement)
        }
        this.setMeta("schema_version", String(version))
      }
    })
    // The claims are read now, once, not in the middle of a later read.
    void this.ledger.size
  }

  meta(key: string): string | undefined {
    return this.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key)[0]?.value
  }

  setMeta(key: string, value: string): void {
    this.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      value,
    )
  }

  deleteMeta(key: string): void {
    this.exec("DELETE FROM meta WHERE key = ?", key)
  }

  get(id: string): ScheduleRow | undefined {
    return this.rows(`SELECT ${FULL} FROM schedules WHERE id = ?`, id)[0]
  }

  /** Rows as the stream sees them ({@link FULL} or {@link LIGHT}, in order): read as arrays, each made a row once. */
  private rows(query: string, ...bindings: SqlStorageValue[]): ScheduleRow[] {
    const cursor = this.storage.sql.exec(query, ...bindings)
    const rows: ScheduleRow[] = []
    for (const values of cursor.raw()) {
      const stored = rowOf(values)
      const row = this.ledger.overlay(stored, stored.writtenSeq)
      this.stored.set(row, stored)
      rows.push(row)
    }
    return this.counted(cursor, rows)
  }

  /** The rows of `ids` as stored now, by id: one read per MAX_BINDINGS ids. */
  getMany(ids: readonly string[]): Map<string, ScheduleRow> {
    if (ids.length === 1) {
      const row = this.get(ids[0] as string)
      return new Map(row ? [[row.id, row]] : [])
    }
    const found = new Map<string, ScheduleRow>()
    for (const part of chunks(ids, MAX_BINDINGS)) {
      const select = statementOf(
        `in ${part.length}`,
        () => `SELECT ${FULL} FROM schedules WHERE id IN (${part.map(() => "?").join(", ")})`,
      )
      for (const row of this.rows(select, ...part)) found.set(row.id, row)
    }
    return found
  }

  /** `row` as SQLite holds it, with its event lines: read again for a row from a light read or not handed out here. */
  private storedOf(row: ScheduleRow): StoredRow {
    const stored = this.stored.get(row)
    if (stored?.eventLines !== undefined) return stored
    const cursor = this.storage.sql.exec(`SELECT ${FULL} FROM schedules WHERE id = ?`, row.id)
    const [values] = this.counted(cursor, [...cursor.raw()])
    return values ? rowOf(values) : { ...row, eventLines: "", eventSeq: null, writtenSeq: 0 }
  }

  /** Writes a transition's row (or deletes it) and its events; call inside transaction(). */
  apply(change: Change, now: number, before?: ScheduleRow): void {
    this.write([{ before, change, now }])
  }

  /** Writes several transitions of rows read in this transaction, each at its own time; rows changing the same columns share a statement. */
  applyAll(changes: ReadonlyArray<{ before: ScheduleRow; change: Change; now: number }>): void {
    this.write(changes)
  }

  /**
   * Each row with only the columns that changed against the row as stored, its transition's events
   * appended to its event lines, and its claim (if one lay over it) carried onto it or gone; a removed row
   * deleted, its events kept with the stream's removals. A finish enters the retention journal, one
   * journal row per finish time of the whole group.
   */
  private write(writes: readonly Write[]): void {
    const inserts: StoredRow[] = []
    const updates: Update[] = []
    const finished = new Map<number, string[]>()
    for (const { before, change, now } of writes) {
      const { row, events } = change
      const stored = before && this.storedOf(before)
      const first = events.length > 0 ? this.seqs.take(events.length) : 0
      const lines = events.map((event, i) => lineOf(first + i, now, event))
      const eventLines = appended(stored?.eventLines ?? "", lines)
      const eventSeq = events.length > 0 ? first + events.length - 1 : (stored?.eventSeq ?? null)
      const was = stored?.finishedAt ?? null
      const is = change.removed ? null : row.finishedAt
      if (was !== is && was !== null) this.journal.drop(was, row.id)
      if (was !== is && is !== null) {
        const ids = finished.get(is)
        if (ids) ids.push(row.id)
        else finished.set(is, [row.id])
      }
      this.ledger.release(row.id)
      if (change.removed) {
        this.exec("DELETE FROM schedules WHERE id = ?", row.id)
        this.feed.remember(row.id, eventLines, eventSeq as number)
      } else if (stored) updates.push({ stored, row, eventLines, eventSeq })
      else inserts.push({ ...row, eventLines, eventSeq, writtenSeq: this.ledger.seq })
    }
    for (const row of inserts) this.put(row)
    this.updateMany(updates)
    for (const [at, ids] of finished) this.journal.add(at, ids)
  }

  /**
   * Writes the changed columns of each row against the row as stored; the rows that change the same columns
   * share a statement (one per MAX_BINDINGS values), their values as a VALUES list.
   */
  private updateMany(updates: readonly Update[]): void {
    // Per row only a mask of its changed fields and its values, pushed flat: no string, object or array per row.
    const groups = new Map<number, { fields: Field[]; values: SqlStorageValue[] }>()
    const writtenSeq = this.ledger.seq
    for (const update of updates) {
      const { stored, row } = update
      let mask = 0
      for (let i = 0; i < ROW_FIELDS; i++) {
        const field = FIELDS[i] as Field
        if (stored[field] !== (row as StoredRow)[field]) mask |= 1 << i
      }
      if (stored.eventSeq !== update.eventSeq) mask |= EVENT_SEQ
      if (stored.writtenSeq !== writtenSeq) mask |= WRITTEN_SEQ
      if (stored.eventLines !== update.eventLines) mask |= EVENT_LINES
      if (mask === 0) continue
      let group = groups.get(mask)
      if (!group) {
        group = { fields: FIELDS.filter((_, i) => mask & (1 << i)), values: [] }
        groups.set(mask, group)
      }
      group.values.push(stored.id)
      for (const field of group.fields) {
        group.values.push(
          (field === "eventSeq"
            ? update.eventSeq
            : field === "writtenSeq"
              ? writtenSeq
              : field === "eventLines"
                ? update.eventLines
                : row[field]) as SqlStorageValue,
        )
      }
    }
    for (const [mask, { fields, values }] of groups) {
      const width = fields.length + 1
      const rows = values.length / width
      // One row is a plain point update: a VALUES list costs a read per row.
      if (rows === 1) {
        this.exec(
          statementOf(`point ${mask}`, () => pointUpdate(fields)),
          ...values.slice(1),
          values[0] as string,
        )
        continue
      }
      // Bound values, not a JSON list: SQLite counts a read for every JSON element as well as the row.
      const perStatement = Math.floor(MAX_BINDINGS / width)
      for (let first = 0; first < rows; first += perStatement) {
        const count = Math.min(perStatement, rows - first)
        this.exec(
          statementOf(`${count} ${mask}`, () => valuesUpdate(fields, count)),
          ...values.slice(first * width, (first + count) * width),
        )
      }
    }
  }

  /** Inserts (or overwrites) a whole row; a row that is not a StoredRow starts with no events. */
  put(row: ScheduleRow | StoredRow): void {
    const stored: StoredRow = { eventLines: "", eventSeq: null, writtenSeq: this.ledger.seq, ...row }
    this.exec(PUT, row.id, ...FIELDS.map((field) => stored[field] as SqlStorageValue))
  }

  /** The number the next batch of claims gets, for its tokens (ledger.ts). */
  nextClaim(): number {
    return this.ledger.next()
  }

  /** Records a batch's claims (one row); call inside the claim's transaction, with `seq` from nextClaim(). */
  claim(seq: number, now: number, entries: readonly ClaimEntry[]): void {
    this.ledger.open(seq, now, entries)
  }

  /**
   * Up to `limit` rows eligible at `now`, in due order, through the partial (eligible_at, id) index. Rows
   * a batch claimed are still in it at their old place: the query reads past them, at most one row each.
   */
  selectDue(now: number, limit: number): ScheduleRow[] {
    const over = this.ledger.size
    const rows = this.rows(
      `SELECT ${LIGHT} FROM schedules WHERE state = 'scheduled' AND eligible_at <= ? ORDER BY eligible_at, id LIMIT ?`,
      now,
      limit + over,
    )
    if (over === 0) return rows
    return rows
      .filter((row) => eligibleAt(row) <= now)
      .sort(byEligible)
      .slice(0, limit)
  }

  /** The smallest eligible_at of any scheduled row, a claim's lease included: when the alarm must fire next. */
  nextEligibleAt(): number | undefined {
    const over = this.ledger.size
    if (over === 0) {
      const [row] = this.exec<{ eligible_at: number }>(
        "SELECT eligible_at FROM schedules WHERE state = 'scheduled' ORDER BY eligible_at, id LIMIT 1",
      )
      return row?.eligible_at
    }
    // A claim only moves its row later: the earliest is among the first `over + 1` in stored order.
    const rows = this.rows(
      `SELECT ${LIGHT} FROM schedules WHERE state = 'scheduled' ORDER BY eligible_at, id LIMIT ?`,
      over + 1,
    )
    return rows.length === 0 ? undefined : Math.min(...rows.map(eligibleAt))
  }

  /**
   * Scheduled rows eligible before `before`, a claim's lease included: how many (of the first `max`
   * through the due index, and the rows a claim lies over) and the one due longest ago (a backfill's occurrence is
   * due from its creation: dueSince).
   */
  overdue(before: number, max: number): { count: number; oldest: ScheduleRow | undefined } {
    const rows = this.rows(
      `SELECT ${LIGHT} FROM schedules WHERE state = 'scheduled' AND eligible_at < ?
         AND (backfill_of IS NULL OR created_at < ?) ORDER BY eligible_at, id LIMIT ?`,
      before,
      before,
      max + this.ledger.size,
    )
    const overdue = rows
      .filter((row) => dueSince(row) < before)
      .sort((a, b) => dueSince(a) - dueSince(b) || (a.id < b.id ? -1 : 1))
    return { count: Math.min(max, overdue.length), oldest: overdue[0] }
  }

  /** The earliest finish time of a finished row (null: none), through the retention journal, read once. */
  firstFinishedAt(): number | null {
    return this.journal.first()
  }

  /** Deletes at most `limit` finished rows that finished at or before `before`, oldest first; answers how many. */
  deleteFinished(before: number, limit: number): number {
    const gone = this.journal.sweep(before, limit)
    for (const id of gone) this.ledger.release(id)
    return gone.length
  }

  /** True when the stream holds no schedule at all, in any state. */
  isEmpty(): boolean {
    return this.exec("SELECT 1 AS one FROM schedules LIMIT 1").length === 0
  }

  list(options: { state?: ScheduleState; limit: number; cursor?: string }): ScheduleRow[] {
    const { clause, bindings } = where({ "state = ?": options.state, "id > ?": options.cursor })
    return this.rows(`SELECT ${LIGHT} FROM schedules ${clause} ORDER BY id LIMIT ?`, ...bindings, options.limit)
  }

  events(options: { scheduleId?: string; limit: number; before?: number }): ScheduleEvent[] {
    return this.feed.read(options)
  }
}

/** A WHERE clause of the conditions whose value is given. */
function where(conditions: Record<string, SqlStorageValue | undefined>) {
  const given = Object.entries(conditions).filter(([, value]) => value !== undefined)
  return {
    clause: given.length ? `WHERE ${given.map(([condition]) => condition).join(" AND ")}` : "",
    bindings: given.map(([, value]) => value as SqlStorageValue),
  }
}
