import type { Client } from "@libsql/client"
import { applyPending, migrationFiles } from "../migration-files.ts"

/**
 * Applies the `*.sql` files of `directory` (the same D1 migrations wrangler applies) that the
 * database has not recorded yet, in name order, and records each in `d1_migrations` as wrangler
 * does. All of it runs in one BEGIN IMMEDIATE transaction: a replica starting at the same time
 * waits for the lock and then finds them applied, so each is applied once; a failing file leaves
 * nothing applied. Answers the names applied now.
 *
 * @example
 * ```ts
 * const applied = await applyLibsqlMigrations(client, "migrations") // ["0001_jobs_leases.sql", ...] the first time, [] after
 * ```
 */
export async function applyLibsqlMigrations(client: Client, directory: string): Promise<string[]> {
  const files = await migrationFiles(directory, "sqlite")
  const transaction = await client.transaction("write")
  try {
    await transaction.execute(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    const pending = await applyPending(directory, files, {
      recorded: async () =>
        (await transaction.execute("SELECT name FROM d1_migrations")).rows.map((row) => String(row.name)),
      run: (sql) => transaction.executeMultiple(sql),
      record: (name) => transaction.execute({ sql: "INSERT INTO d1_migrations (name) VALUES (?)", args: [name] }),
    })
    await transaction.commit()
    return pending
  } finally {
    transaction.close()
  }
}
