import type { Pool, PoolConfig } from "pg"

/** PostgreSQL's type ids the binding answers as numbers, as D1 and SQLite answer them: BIGINT, NUMERIC (sum). */
const INT8 = 20
const NUMERIC = 1700

/** The pool's bounds (SLOTWISE_DATABASE_POOL_MAX, SLOTWISE_DATABASE_STATEMENT_TIMEOUT, SLOTWISE_DATABASE_CONNECT_TIMEOUT). */
export interface PostgresSettings {
  poolMax: number
  statementTimeoutMs: number
  connectTimeoutMs: number
}

/**
 * A bounded `pg` Pool for `url`: at most `poolMax` connections, each with `statement_timeout`, and
 * `connectTimeoutMs` to open one. BIGINT and NUMERIC come back as numbers. `pg` is loaded here, only for
 * a PostgreSQL URL (an optional peer dependency). A connection the server drops while idle is
 * discarded, not thrown: the next statement opens a new one, so the pool heals when the server is back.
 *
 * @example
 * ```ts
 * const pool = await openPostgres("postgres://app@db:5432/app", { poolMax: 10, statementTimeoutMs: 10_000, connectTimeoutMs: 5_000 })
 * ```
 */
export async function openPostgres(url: string, settings: PostgresSettings): Promise<Pool> {
  const pg = await import("pg").catch((error: Error) => {
    throw new Error(
      `SLOTWISE_DATABASE_URL names PostgreSQL, but the pg package cannot be loaded (npm install pg): ${error.message}`,
    )
  })
  const { types } = pg.default
  const config: PoolConfig = {
    connectionString: url,
    max: settings.poolMax,
    statement_timeout: settings.statementTimeoutMs,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8 || oid === NUMERIC
          ? (value: string) => Number(value)
          : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
    },
  }
  const pool = new pg.default.Pool(config)
  // An idle connection the server closed: the pool drops it; the statement that needs one reports the outage.
  pool.on("error", () => {})
  return pool
}
