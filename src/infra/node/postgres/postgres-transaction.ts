import type { Pool, PoolClient } from "pg"

/**
 * Runs `work` between BEGIN and COMMIT on one pooled connection: all or nothing. On any failure it rolls back and
 * throws the failure; a connection the rollback cannot reach is dropped from the pool rather than reused. Nothing
 * is retried.
 *
 * @example
 * ```ts
 * const answers = await inTransaction(pool, (client) => client.query("SELECT 1"))
 * ```
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  let broken = false
  try {
    await client.query("BEGIN")
    const result = await work(client)
    await client.query("COMMIT")
    return result
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {
      broken = true
    })
    throw error
  } finally {
    // pg destroys a connection released with a truthy argument instead of pooling it again.
    client.release(broken)
  }
}
