import type { Client, InValue, ResultSet } from "@libsql/client"

type Value = InValue

/** D1 accepts these as bound values; so does this binding (booleans become 1 and 0, as on D1). */
function toValue(value: unknown, index: number): Value {
  if (value === null || typeof value === "string" || typeof value === "number") return value
  if (typeof value === "boolean") return value ? 1 : 0
  if (value instanceof ArrayBuffer) return value
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  throw new TypeError(`D1_TYPE_ERROR: type '${typeof value}' not supported for value ${index + 1}`)
}

const objects = (result: ResultSet) =>
  result.rows.map((row) => Object.fromEntries(result.columns.map((column, i) => [column, row[i]])))

function d1Result(result: ResultSet, started: number) {
  return {
    results: objects(result),
    success: true as const,
    meta: {
      duration: performance.now() - started,
      changes: result.rowsAffected,
      last_row_id: Number(result.lastInsertRowid ?? 0),
      changed_db: result.rowsAffected > 0,
      rows_read: result.rows.length,
      rows_written: result.rowsAffected,
      size_after: 0,
    },
  }
}

class Statement {
  readonly statement: { sql: string; args: Value[] }
  private readonly client: Client

  constructor(client: Client, statement: { sql: string; args: Value[] }) {
    this.client = client
    this.statement = statement
  }

  bind(...values: unknown[]) {
    return new Statement(this.client, { sql: this.statement.sql, args: values.map(toValue) })
  }

  async all() {
    const started = performance.now()
    return d1Result(await this.client.execute(this.statement), started)
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
    const result = await this.client.execute(this.statement)
    const rows = result.rows.map((row) => result.columns.map((_, i) => row[i]))
    return options?.columnNames ? [result.columns, ...rows] : rows
  }
}

const unsupported = (what: string) => () => {
  throw new Error(`${what} is not offered by the container's D1 binding over libSQL`)
}

/**
 * A D1 binding over a libSQL client, so the code a Worker runs against `env.DB` (drizzle's D1
 * driver, `prepare().bind().all()`) runs unchanged in the container. A batch is one write
 * transaction (BEGIN IMMEDIATE), all or nothing as on D1, and takes the write lock before it
 * reads, so replicas on one file never fail a read-then-write batch halfway.
 *
 * @example
 * ```ts
 * const env = { DB: d1OverLibsql(await openDatabase()) }
 * await env.DB.prepare("SELECT 1 AS one").first()
 * ```
 */
export function d1OverLibsql(client: Client): D1Database {
  const binding = {
    prepare: (sql: string) => new Statement(client, { sql, args: [] }),
    async batch(statements: Statement[]) {
      const started = performance.now()
      const results = await client.batch(
        statements.map((statement) => statement.statement),
        "write",
      )
      return results.map((result) => d1Result(result, started))
    },
    exec: unsupported("exec()"),
    withSession: unsupported("withSession()"),
    dump: unsupported("dump()"),
  }
  return binding as unknown as D1Database
}
