import { readdir, readFile } from "node:fs/promises"
import path from "node:path"
import type { Client } from "@libsql/client"
import { DEFAULT_MIGRATIONS, DEFAULT_POSTGRES_MIGRATIONS } from "./settings.ts"

export class MigrationsError extends Error {
  override name = "MigrationsError"
}

/** The engine a migrations folder is for: D1's SQLite files (libSQL), or their PostgreSQL twins. */
export type MigrationsDialect = "sqlite" | "postgres"

/** Each dialect's folder when SLOTWISE_MIGRATIONS is not set. */
const DEFAULT_FOLDER: Record<MigrationsDialect, string> = {
  sqlite: DEFAULT_MIGRATIONS,
  postgres: DEFAULT_POSTGRES_MIGRATIONS,
}

/**
 * The one command that copies slotwise's migrations into `directory`: `npx slotwise-migrations`,
 * `--postgres` for the twins, and the folder when it is not the default.
 *
 * @example
 * ```ts
 * copyCommand("migrations/postgres", "postgres") // "npx slotwise-migrations --postgres"
 * ```
 */
export function copyCommand(directory: string, dialect: MigrationsDialect): string {
  // Both the container and the bin read a relative folder from the working directory.
  const folder = path.resolve(directory) === path.resolve(DEFAULT_FOLDER[dialect]) ? [] : [shellWord(directory)]
  return ["npx slotwise-migrations", ...(dialect === "postgres" ? ["--postgres"] : []), ...folder].join(" ")
}

const shellWord = (word: string) => (/^[\w./@:+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)

/**
 * The `*.sql` files of a migrations folder, in name order. A folder that does not exist or holds no
 * migration (a Node project's first start) throws a MigrationsError naming it and the command that fills it.
 *
 * @example
 * ```ts
 * await migrationFiles("migrations", "sqlite") // ["0001_slotwise_jobs_leases.sql", ...]
 * ```
 */
export async function migrationFiles(directory: string, dialect: MigrationsDialect): Promise<string[]> {
  const where = `the migrations folder ${JSON.stringify(directory)} (${path.resolve(directory)})`
  const fill = `copy slotwise's migrations into it with \`${copyCommand(directory, dialect)}\`, then start again`
  let files: string[]
  try {
    files = (await readdir(directory)).filter((file) => file.endsWith(".sql")).sort()
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") throw new MigrationsError(`${where} does not exist: ${fill}`)
    throw new MigrationsError(`${where} cannot be read: ${error}`)
  }
  if (files.length === 0) throw new MigrationsError(`${where} holds no .sql migration: ${fill}`)
  return files
}

/**
 * Applies the `*.sql` files of `directory` (the same D1 migrations wrangler applies) that the
 * database has not recorded yet, in name order, and records each in `d1_migrations` as wrangler
 * does. All of it runs in one BEGIN IMMEDIATE transaction: a replica starting at the same time
 * waits for the lock and then finds them applied, so each is applied once; a failing file leaves
 * nothing applied. Answers the names applied now.
 *
 * @example
 * ```ts
 * const applied = await applyMigrations(client, "migrations") // ["0001_jobs_leases.sql", ...] the first time, [] after
 * ```
 */
export async function applyMigrations(client: Client, directory: string): Promise<string[]> {
  const files = await migrationFiles(directory, "sqlite")
  const transaction = await client.transaction("write")
  try {
    await transaction.execute(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    const recorded = await transaction.execute("SELECT name FROM d1_migrations")
    const applied = new Set(recorded.rows.map((row) => String(row.name)))
    const pending = files.filter((file) => !applied.has(file))
    for (const file of pending) {
      try {
        await transaction.executeMultiple(await readFile(path.join(directory, file), "utf8"))
      } catch (error) {
        throw new MigrationsError(`migration ${file} failed, nothing was applied: ${error}`)
      }
      await transaction.execute({ sql: "INSERT INTO d1_migrations (name) VALUES (?)", args: [file] })
    }
    await transaction.commit()
    return pending
  } finally {
    transaction.close()
  }
}
