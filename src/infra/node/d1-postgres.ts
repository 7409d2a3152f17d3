import type { Pool, PoolClient, QueryArrayResult } from "pg"
import { type BoundStatement, type DriverAnswer, d1Binding } from "./d1-binding.ts"
import { numberPlaceholders } from "./placeholders.ts"

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
