/** A value D1 accepts bound to a statement (booleans arrive as 1 and 0, as on D1). */
export type BoundValue = string | number | null | Uint8Array

/** One statement with its bound values, as a driver runs it. */
export interface BoundStatement {
  sql: string
  args: BoundValue[]
}

/** What a driver answers for one statement: rows as arrays in `columns` order. */
export interface DriverAnswer {
  columns: string[]
  rows: unknown[][]
  changes: number
  lastRowId: number
}

/** The database under a container's D1 binding: one statement, or a batch as one transaction. */
export interface D1Driver {
  /** Named in the error of a D1 method the binding does not offer. */
  name: string
  run(statement: BoundStatement): Promise<DriverAnswer>
  /** All or nothing, as D1's batch; a failure is thrown, never retried. */
  batch(statements: BoundStatement[]): Promise<DriverAnswer[]>
}

/** As on D1: booleans become 1 and 0; anything else D1 refuses is refused here, naming the value. */
function toValue(value: unknown, index: number): BoundValue {
  if (value === null || typeof value === "string" || typeof value === "number") return value
  if (typeof value === "boolean") return value ? 1 : 0
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  throw new TypeError(`D1_TYPE_ERROR: type '${typeof value}' not supported for value ${index + 1}`)
}

function d1Result(answer: DriverAnswer, started: number) {
  const { columns } = answer
  return {
    results: answer.rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]]))),
    success: true as const,
    meta: {
      duration: performance.now() - started,
      changes: answer.changes,
      last_row_id: answer.lastRowId,
      changed_db: answer.changes > 0,
      rows_read: answer.rows.length,
      rows_written: answer.changes,
      size_after: 0,
    },
  }
}

class Statement {
  readonly statement: BoundStatement
  private readonly driver: D1Driver

  constructor(driver: D1Driver, statement: BoundStatement) {
    this.driver = driver
    this.statement = statement
  }

  bind(...values: unknown[]) {
    return new Statement(this.driver, { sql: this.statement.sql, args: values.map(toValue) })
  }

  async all() {
    const started = performance.now()
    return d1Result(await this.driver.run(this.statement), started)
  }

  run() {
    return this.all()
  }

  async first(column?: string) {
    const [row] = (await this.all()).results
    if (row === undefined) return null
    return column === undefined ? row : (row[column] ?? null)
  }

  async raw(options?: { columnNames?: boolean }) {
    const answer = await this.driver.run(this.statement)
    return options?.columnNames ? [answer.columns, ...answer.rows] : answer.rows
  }
}

/**
 * The D1 binding the container hands its jobs and admin as `env.DB`, over a driver (libSQL or
 * PostgreSQL), so the code a Worker runs against D1 (drizzle's D1 driver, `prepare().bind().all()`)
 * runs unchanged. `exec`, `withSession` and `dump` are not offered: they throw, naming the driver.
 *
 * @example
 * ```ts
 * const DB = d1Binding({ name: "libSQL", run, batch })
 * await DB.prepare("SELECT 1 AS one").first()
 * ```
 */
export function d1Binding(driver: D1Driver): D1Database {
  const unsupported = (what: string) => () => {
    throw new Error(`${what} is not offered by the container's D1 binding over ${driver.name}`)
  }
  const binding = {
    prepare: (sql: string) => new Statement(driver, { sql, args: [] }),
    async batch(statements: Statement[]) {
      const started = performance.now()
      const answers = await driver.batch(statements.map((statement) => statement.statement))
      return answers.map((answer) => d1Result(answer, started))
    },
    exec: unsupported("exec()"),
    withSession: unsupported("withSession()"),
    dump: unsupported("dump()"),
  }
  return binding as unknown as D1Database
}
