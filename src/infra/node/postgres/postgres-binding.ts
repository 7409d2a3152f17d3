import type { Pool, PoolClient, QueryArrayResult } from "pg"
import { type BoundStatement, type DriverAnswer, d1Binding } from "../d1-binding.ts"
import { numberPlaceholders } from "./placeholders.ts"
import { inTransaction } from "./postgres-transaction.ts"

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
    batch: (statements) =>
      inTransaction(pool, async (client) => {
        const answers: DriverAnswer[] = []
        for (const statement of statements) answers.push(await run(client, statement))
        return answers
      }),
  })
}
