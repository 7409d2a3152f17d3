import type { Client, ResultSet } from "@libsql/client"
import { type DriverAnswer, d1Binding } from "../d1-binding.ts"

const answerOf = (result: ResultSet): DriverAnswer => ({
  columns: result.columns,
  rows: result.rows.map((row) => result.columns.map((_, i) => row[i])),
  changes: result.rowsAffected,
  lastRowId: Number(result.lastInsertRowid ?? 0),
})

/**
 * A D1 binding over a libSQL client, so the code a Worker runs against `env.DB` (drizzle's D1
 * driver, `prepare().bind().all()`) runs unchanged in the container. A batch is one write
 * transaction (BEGIN IMMEDIATE), all or nothing as on D1, and takes the write lock before it
 * reads, so replicas on one file never fail a read-then-write batch halfway.
 *
 * @example
 * ```ts
 * const env = { DB: d1OverLibsql(await openLibsql()) }
 * await env.DB.prepare("SELECT 1 AS one").first()
 * ```
 */
export function d1OverLibsql(client: Client): D1Database {
  return d1Binding({
    name: "libSQL",
    run: async (statement) => answerOf(await client.execute(statement)),
    batch: async (statements) => (await client.batch(statements, "write")).map(answerOf),
  })
}
