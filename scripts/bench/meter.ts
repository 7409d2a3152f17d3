/** Rows a Durable Object's storage read and wrote, counted the same way for both systems. */
export interface Rows {
  /** SQL rows read (cursor.rowsRead) plus keys read through the key-value API. */
  rowsRead: number
  /** SQL rows written (cursor.rowsWritten) plus keys written or deleted through the key-value API. */
  rowsWritten: number
  /** The key-value part of the two figures above (SQLite-backed objects bill each key as one row). */
  kvRead: number
  kvWritten: number
  /** setAlarm / deleteAlarm calls, which are not rows but are storage writes. */
  alarmWrites: number
}

const zero = (): Rows => ({ rowsRead: 0, rowsWritten: 0, kvRead: 0, kvWritten: 0, alarmWrites: 0 })

const keys = (key: unknown) => (Array.isArray(key) ? key.length : 1)

/**
 * Instruments one object's storage in place: every SQL cursor is remembered and its counters
 * summed when read out (they are final once the cursor is consumed, which both systems do at
 * once), and each key of the key-value API counts as one row. Off until `start()`.
 */
export class StorageMeter {
  private cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = []
  private counted = zero()
  private on = false

  constructor(storage: DurableObjectStorage) {
    const sql = storage.sql
    const exec = sql.exec.bind(sql)
    sql.exec = ((query: string, ...bindings: unknown[]) => {
      const cursor = exec(query, ...bindings)
      if (this.on) this.cursors.push(cursor)
      return cursor
    }) as typeof sql.exec
    const get = storage.get.bind(storage) as (key: unknown, options?: unknown) => Promise<unknown>
    storage.get = ((key: unknown, options?: unknown) => {
      if (this.on) this.counted.kvRead += keys(key)
      return get(key, options)
    }) as typeof storage.get
    const put = storage.put.bind(storage) as (key: unknown, value?: unknown, options?: unknown) => Promise<void>
    storage.put = ((key: unknown, value?: unknown, options?: unknown) => {
      if (this.on) this.counted.kvWritten += typeof key === "string" ? 1 : Object.keys(key as object).length
      return put(key, value, options)
    }) as typeof storage.put
    const del = storage.delete.bind(storage) as (key: unknown, options?: unknown) => Promise<unknown>
    storage.delete = ((key: unknown, options?: unknown) => {
      if (this.on) this.counted.kvWritten += keys(key)
      return del(key, options)
    }) as typeof storage.delete
    const list = storage.list.bind(storage) as (options?: unknown) => Promise<Map<string, unknown>>
    storage.list = (async (options?: unknown) => {
      const found = await list(options)
      if (this.on) this.counted.kvRead += found.size
      return found
    }) as typeof storage.list
    const setAlarm = storage.setAlarm.bind(storage)
    storage.setAlarm = (time, options) => {
      if (this.on) this.counted.alarmWrites++
      return setAlarm(time, options)
    }
    const deleteAlarm = storage.deleteAlarm.bind(storage)
    storage.deleteAlarm = (options) => {
      if (this.on) this.counted.alarmWrites++
      return deleteAlarm(options)
    }
  }

  /** Counts from now on, from zero. */
  start(): void {
    this.cursors = []
    this.counted = zero()
    this.on = true
  }

  /** What was counted since start(); the counting goes on. */
  read(): Rows {
    for (const cursor of this.cursors) {
      this.counted.rowsRead += cursor.rowsRead
      this.counted.rowsWritten += cursor.rowsWritten
    }
    this.cursors = []
    const rows = { ...this.counted }
    rows.rowsRead += rows.kvRead
    rows.rowsWritten += rows.kvWritten
    return rows
  }

  stop(): Rows {
    const rows = this.read()
    this.on = false
    return rows
  }
}
