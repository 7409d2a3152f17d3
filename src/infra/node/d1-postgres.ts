import type { Pool, PoolClient, QueryArrayResult } from "pg"

type Value = string | number | null | Uint8Array

/** As on D1: booleans become 1 and 0; anything else D1 refuses is refused here, naming the value. */
function toValue(value: unknown, index: number): Value {
  if (value === null || typeof value === "string" || typeof value === "number") return value
  if (typeof value === "boolean") return value ? 1 : 0
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  throw new TypeError(`D1_TYPE_ERROR: type '${typeof value}' not supported for value ${index + 1}`)
}

/**
 * D1's `?` and `?NNN` placeholders numbered as Postgres wants them ($1, $2, …), outside string literals, quoted
 * identifiers and `--` comments, where a `?` is text.
 */
export function numberPlaceholders(sql: string): string {
  let out = ""
  let n = 0
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i] as string
    const close = char === "'" ? "'" : char === '"' ? '"' : undefined
    if (close !== undefined) {
      // A doubled quote inside is an escaped one: the literal goes on.
      let end = i + 1
      while (end < sql.length && !(sql[end] === close && sql[end + 1] !== close)) end += sql[end] === close ? 2 : 1
      out += sql.slice(i, end + 1)
      i = end
    } else if (char === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i)
      const stop = end === -1 ? sql.length : end
      out += sql.slice(i, stop)
      i = stop - 1
    } else if (char === "?") {
      // `?NNN`, D1's numbered form, keeps its number; a bare `?` takes the next.
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0]
      if (digits === undefined) out += `$${++n}`
      else {
        out += `$${digits}`
        i += digits.length
      }
    } else out += char
  }
  return out
}

type Queryable = Pick<Pool | PoolClient, "query">

const execute = (db: Queryable, statement: { sql: string; args: Value[] }): Promise<QueryArrayResult> =>
  db.query({ text: numberPlaceholders(statement.sql), values: statement.args, rowMode: "array" })

function d1Result(result: QueryArrayResult, started: number) {
  const columns = result.fields.map((field) => field.name)
  const changes = result.command === "SELECT" ? 0 : (result.rowCount ?? 0)
  return {
    results: result.rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]]))),
    success: true as const,
    meta: {
      duration: performance.now() - started,
      changes,
      last_row_id: 0,
      changed_db: changes > 0,
      rows_read: result.rows.length,
      rows_written: changes,
      size_after: 0,
    },
  }
}

class Statement {
  readonly statement: { sql: string; args: Value[] }
  private readonly pool: Pool

  constructor(pool: Pool, statement: { sql: string; args: Value[] }) {
    this.pool = pool
    this.statement = statement
  }

  bind(...values: unknown[]) {
    return new Statement(this.pool, { sql: this.statement.sql, args: values.map(toValue) })
  }

  async all() {
    const started = performance.now()
    return d1Result(await execute(this.pool, this.statement), started)
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
    const result = await execute(this.pool, this.statement)
    return options?.columnNames ? [result.fields.map((field) => field.name), ...result.rows] : result.rows
  }
}

const unsupported = (what: string) => () => {
  throw new Error(`${what} is not offered by the container's D1 binding over PostgreSQL`)
}

/**
 * A D1 binding over a `pg` Pool, so the code a Worker runs against `env.DB` runs unchanged on
 * PostgreSQL: `?` placeholders numbered, rows as D1 answers them (BIGINT and NUMERIC as numbers:
 * the pool's type parsers, see openPostgres). A batch is BEGIN … COMMIT on one pooled connection,
 * all or nothing as on D1; a failed statement rolls it back and is never retried.
 *
 * @example
 * ```ts
 * const env = { DB: d1OverPostgres(pool) }
 * await env.DB.prepare("SELECT 1 AS one").first()
 * ```
 */
export function d1OverPostgres(pool: Pool): D1Database {
  const binding = {
    prepare: (sql: string) => new Statement(pool, { sql, args: [] }),
    async batch(statements: Statement[]) {
      const started = performance.now()
      const client = await pool.connect()
      let broken: unknown
      try {
        await client.query("BEGIN")
        const results: QueryArrayResult[] = []
        for (const statement of statements) results.push(await execute(client, statement.statement))
        await client.query("COMMIT")
        return results.map((result) => d1Result(result, started))
      } catch (error) {
        // A connection the rollback cannot reach is dropped from the pool rather than reused.
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken = rollbackError
        })
        throw error
      } finally {
        client.release(broken instanceof Error ? broken : undefined)
      }
    },
    exec: unsupported("exec()"),
    withSession: unsupported("withSession()"),
    dump: unsupported("dump()"),
  }
  return binding as unknown as D1Database
}
