import type { Pool, PoolClient, QueryArrayResult } from "pg"
import { type BoundStatement, type DriverAnswer, d1Binding } from "./d1-binding.ts"

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

async function run(db: Queryable, statement: BoundStatement): Promise<DriverAnswer> {
  const result: QueryArrayResult = await db.query({
    text: numberPlaceholders(statement.sql),
    values: statement.args,
    rowMode: "array",
  })
  return {
    columns: result.fields.map((field) => field.name),
    rows: result.rows,
    changes: result.command === "SELECT" ? 0 : (result.rowCount ?? 0),
    lastRowId: 0,
  }
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
  return d1Binding({
    name: "PostgreSQL",
    run: (statement) => run(pool, statement),
    async batch(statements) {
      const client = await pool.connect()
      let broken: unknown
      try {
        await client.query("BEGIN")
        const answers: DriverAnswer[] = []
        for (const statement of statements) answers.push(await run(client, statement))
        await client.query("COMMIT")
        return answers
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
  })
}
