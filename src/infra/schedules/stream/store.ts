import type { ScheduleState } from "../client/contract.ts"
import type { EventDraft, ScheduleEvent } from "../client/events.ts"
import { chunks, MAX_BINDINGS, statementOf } from "./bindings.ts"
import type { Change } from "./core.ts"
import { EventLog } from "./event-log.ts"
import { DeliveryRollup } from "./rollup-store.ts"
import type { ScheduleRow } from "./row.ts"
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

/** Each changeable field's column (the id never changes). */
const COLUMN_OF: Readonly<Record<Exclude<keyof ScheduleRow, "id">, string>> = {
  consumer: "consumer",
  kind: "kind",
  atMs: "at_ms",
  intervalMs: "interval_ms",
  cron: "cron",
  timezone: "timezone",
  payload: "payload",
  maxAttempts: "max_attempts",
  state: "state",
  occurrence: "occurrence",
  nextAt: "next_at",
  cadenceAt: "cadence_at",
  retryAt: "retry_at",
  claimUntil: "claim_until",
  claimToken: "claim_token",
  attempts: "attempts",
  lastError: "last_error",
  createdAt: "created_at",
  updatedAt: "updated_at",
  finishedAt: "finished_at",
  incarnation: "incarnation",
}

type Field = keyof typeof COLUMN_OF
const FIELDS = Object.keys(COLUMN_OF) as Field[]
const COLUMNS = `id, ${FIELDS.map((field) => COLUMN_OF[field]).join(", ")}`
// An upsert of the whole row; created_at is kept from the first insert.
const PUT = `INSERT INTO schedules (${COLUMNS}) VALUES (?, ${FIELDS.map(() => "?").join(", ")})
  ON CONFLICT (id) DO UPDATE SET ${FIELDS.filter((field) => field !== "createdAt")
    .map((field) => `${COLUMN_OF[field]} = excluded.${COLUMN_OF[field]}`)
    .join(", ")}`

/** The stream's SQLite: synchronous queries, and row counters from every cursor. */
export class ScheduleStore {
  readonly counts: RowCounts = { rowsRead: 0, rowsWritten: 0 }
  private readonly log = new EventLog((query, ...bindings) => this.exec(query, ...bindings))
  /** The stream's history of deliveries: a settlement adds its batch to it. */
  readonly rollup = new DeliveryRollup((query, ...bindings) => this.exec(query, ...bindings))
  /** The earliest finished_at (null: no finished row), kept across calls; undefined until read. */
  private earliestFinish: number | null | undefined

  constructor(private readonly storage: DurableObjectStorage) {}

  exec<T extends SqlRow = SqlRow>(query: string, ...bindings: SqlStorageValue[]): T[] {
    const cursor = this.storage.sql.exec<T>(query, ...bindings)
    return this.counted(cursor, cursor.toArray())
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
      this.log.forget()
      this.rollup.forget()
      this.earliestFinish = undefined
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
    return this.rows(`SELECT ${COLUMNS} FROM schedules WHERE id = ?`, id)[0]
  }

  /** Whole schedule rows ({@link COLUMNS}, in order): read as arrays, each made a row once. */
  private rows(query: string, ...bindings: SqlStorageValue[]): ScheduleRow[] {
    const cursor = this.storage.sql.exec(query, ...bindings)
    const rows: ScheduleRow[] = []
    for (const values of cursor.raw()) rows.push(rowOf(values))
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
        () => `SELECT ${COLUMNS} FROM schedules WHERE id IN (${part.map(() => "?").join(", ")})`,
      )
      for (const row of this.rows(select, ...part)) found.set(row.id, row)
    }
    return found
  }

  /**
   * Writes a transition's row (or deletes it) and its events; call inside transaction(). Given
   * the row as it was read, only the columns that changed are written.
   */
  apply(change: Change, now: number, before?: ScheduleRow): void {
    if (change.removed) this.exec("DELETE FROM schedules WHERE id = ?", change.row.id)
    else if (before) this.update(before, change.row)
    else this.put(change.row)
    this.append(change.events, now)
    this.noteFinish(before?.finishedAt ?? null, change.removed ? null : change.row.finishedAt)
  }

  /**
   * Writes several transitions of rows read in this transaction (no insert, no delete), each at
   * its own time: rows changing the same columns in one statement, all events in one.
   */
  applyAll(changes: ReadonlyArray<{ before: ScheduleRow; change: Change; now: number }>): void {
    this.updateMany(changes.map(({ before, change }) => [before, change.row] as const))
    this.log.appendAll(changes.flatMap(({ change, now }) => change.events.map((event) => ({ event, at: now }))))
    for (const { before, change } of changes) this.noteFinish(before.finishedAt, change.row.finishedAt)
  }

  /** Keeps earliestFinish exact without a read: a new finish can only lower it; losing the earliest forgets it. */
  private noteFinish(before: number | null, after: number | null): void {
    if (before === after || this.earliestFinish === undefined) return
    if (before !== null && before <= (this.earliestFinish ?? before)) this.earliestFinish = undefined
    else if (after !== null) this.earliestFinish = Math.min(after, this.earliestFinish ?? after)
  }

  /** Writes the columns of `after` that differ from `before`, the same row as read in this transaction. */
  update(before: ScheduleRow, after: ScheduleRow): void {
    this.updateMany([[before, after]])
  }

  /**
   * Writes the changed columns of each (before, after) pair, as update() does; the rows that change
   * the same columns share a statement (one per MAX_BINDINGS values), their values as a VALUES list.
   */
  updateMany(pairs: ReadonlyArray<readonly [ScheduleRow, ScheduleRow]>): void {
    // Per row only a mask of its changed fields and its values, pushed flat: no string, object or array per row.
    const groups = new Map<number, { fields: Field[]; values: SqlStorageValue[] }>()
    for (const [before, after] of pairs) {
      let mask = 0
      for (let i = 0; i < FIELDS.length; i++) {
        const field = FIELDS[i] as Field
        if (before[field] !== after[field]) mask |= 1 << i
      }
      if (mask === 0) continue
      let group = groups.get(mask)
      if (!group) {
        group = { fields: FIELDS.filter((_, i) => mask & (1 << i)), values: [] }
        groups.set(mask, group)
      }
      group.values.push(before.id)
      for (const field of group.fields) group.values.push(after[field])
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

  put(row: ScheduleRow): void {
    this.exec(PUT, row.id, ...FIELDS.map((field) => row[field]))
  }

  append(events: readonly EventDraft[], now: number): void {
    this.log.append(events, now)
  }

  /** Up to `limit` rows eligible at `now`, in due order, through the partial (eligible_at, id) index. */
  selectDue(now: number, limit: number): ScheduleRow[] {
    return this.rows(
      `SELECT ${COLUMNS} FROM schedules WHERE state = 'scheduled' AND eligible_at <= ? ORDER BY eligible_at, id LIMIT ?`,
      now,
      limit,
    )
  }

  /** The smallest eligible_at of any scheduled row: when the alarm must fire next. */
  nextEligibleAt(): number | undefined {
    const [row] = this.exec<{ eligible_at: number }>(
      "SELECT eligible_at FROM schedules WHERE state = 'scheduled' ORDER BY eligible_at, id LIMIT 1",
    )
    return row?.eligible_at
  }

  /** The earliest finish time of a finished row (null: none), through the partial finished index, read once. */
  firstFinishedAt(): number | null {
    if (this.earliestFinish === undefined) {
      const [row] = this.exec<{ finished_at: number }>(
        "SELECT finished_at FROM schedules WHERE state != 'scheduled' ORDER BY finished_at, id LIMIT 1",
      )
      this.earliestFinish = row?.finished_at ?? null
    }
    return this.earliestFinish
  }

  /** Deletes at most `limit` finished rows that finished at or before `before`, oldest first; answers how many. */
  deleteFinished(before: number, limit: number): number {
    this.earliestFinish = undefined
    return this.exec(
      `DELETE FROM schedules WHERE id IN (SELECT id FROM schedules WHERE state != 'scheduled' AND finished_at <= ?
         ORDER BY finished_at, id LIMIT ?) RETURNING id`,
      before,
      limit,
    ).length
  }

  /** True when the stream holds no schedule at all, in any state. */
  isEmpty(): boolean {
    return this.exec("SELECT 1 AS one FROM schedules LIMIT 1").length === 0
  }

  list(options: { state?: ScheduleState; limit: number; cursor?: string }): ScheduleRow[] {
    const { clause, bindings } = where({ "state = ?": options.state, "id > ?": options.cursor })
    return this.rows(`SELECT ${COLUMNS} FROM schedules ${clause} ORDER BY id LIMIT ?`, ...bindings, options.limit)
  }

  events(options: { scheduleId?: string; limit: number; before?: number }): ScheduleEvent[] {
    return this.log.read(options)
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

const pointUpdate = (fields: readonly Field[]) =>
  `UPDATE schedules SET ${fields.map((field) => `${COLUMN_OF[field]} = ?`).join(", ")} WHERE id = ?`

const valuesUpdate = (fields: readonly Field[], rows: number) =>
  `UPDATE schedules SET ${fields.map((field, i) => `${COLUMN_OF[field]} = v.column${i + 2}`).join(", ")}
   FROM (VALUES ${Array.from({ length: rows }, () => `(${["?", ...fields.map(() => "?")].join(", ")})`).join(", ")}) AS v
   WHERE schedules.id = v.column1`

// A literal over COLUMNS' order, not built from COLUMN_OF: it runs for every row a tick reads, twice per delivery.
function rowOf(v: SqlStorageValue[]): ScheduleRow {
  return {
    id: v[0] as string,
    consumer: v[1] as string,
    kind: v[2] as ScheduleRow["kind"],
    atMs: v[3] as number | null,
    intervalMs: v[4] as number | null,
    cron: v[5] as string | null,
    timezone: v[6] as string | null,
    payload: v[7] as string,
    maxAttempts: v[8] as number | null,
    state: v[9] as ScheduleState,
    occurrence: v[10] as number,
    nextAt: v[11] as number,
    cadenceAt: v[12] as number,
    retryAt: v[13] as number | null,
    claimUntil: v[14] as number | null,
    claimToken: v[15] as string | null,
    attempts: v[16] as number,
    lastError: v[17] as string | null,
    createdAt: v[18] as number,
    updatedAt: v[19] as number,
    finishedAt: v[20] as number | null,
    incarnation: v[21] as number | null,
  }
}
