import type { Pool } from "pg"
import { applyPending, migrationFiles } from "../migration-files.ts"
import { inTransaction } from "./postgres-transaction.ts"

/** Any number that takes two replicas' migrations in turn: the advisory lock's key ("slotwise" in ASCII, as a bigint). */
export const MIGRATIONS_LOCK_KEY = 0x736c6f7477697365n

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
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATIONS_LOCK_KEY.toString()])
    await client.query(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id SERIAL PRIMARY KEY, name TEXT UNIQUE, applied_at TIMESTAMPTZ DEFAULT now() NOT NULL)",
    )
    return applyPending(directory, files, {
      recorded: async () =>
        (await client.query<{ name: string }>("SELECT name FROM d1_migrations")).rows.map((row) => row.name),
      run: (sql) => client.query(sql),
      record: (name) => client.query("INSERT INTO d1_migrations (name) VALUES ($1)", [name]),
    })
  })
}
