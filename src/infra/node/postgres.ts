import { readFile } from "node:fs/promises"
import path from "node:path"
import type { Pool, PoolConfig } from "pg"
import { MigrationsError, migrationFiles } from "./migrations.ts"

/** PostgreSQL's type ids the binding answers as numbers, as D1 and SQLite answer them: BIGINT, NUMERIC (sum). */
const INT8 = 20
const NUMERIC = 1700

/** Any number that takes two replicas' migrations in turn: the advisory lock's key ("slotwise" in ASCII, as a bigint). */
export const MIGRATIONS_LOCK_KEY = 0x736c6f7477697365n

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

/**
 * Applies the `*.sql` files of `directory` (the PostgreSQL twins of the D1 migrations, same names) that
 * `d1_migrations` does not record, in name order, in one transaction under an advisory lock: a
 * replica starting at the same time waits, then finds them applied, so each is applied once; a
 * failing file leaves nothing applied. Answers the names applied now.
 *
 * @example
 * ```ts
 * const applied = await applyPostgresMigrations(pool, "migrations/postgres")
 * ```
 */
export async function applyPostgresMigrations(pool: Pool, directory: string): Promise<string[]> {
  const files = await migrationFiles(directory, "postgres")
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query("BEGIN")
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATIONS_LOCK_KEY.toString()])
    await client.query(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id SERIAL PRIMARY KEY, name TEXT UNIQUE, applied_at TIMESTAMPTZ DEFAULT now() NOT NULL)",
    )
    const recorded = await client.query<{ name: string }>("SELECT name FROM d1_migrations")
    const applied = new Set(recorded.rows.map((row) => row.name))
    const pending = files.filter((file) => !applied.has(file))
    for (const file of pending) {
      try {
        await client.query(await readFile(path.join(directory, file), "utf8"))
      } catch (error) {
        throw new MigrationsError(`migration ${file} failed, nothing was applied: ${error}`)
      }
      await client.query("INSERT INTO d1_migrations (name) VALUES ($1)", [file])
    }
    await client.query("COMMIT")
    return pending
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError
    })
    throw error
  } finally {
    client.release(broken)
  }
}
