import { readdir, readFile } from "node:fs/promises"
import path from "node:path"
import { DEFAULT_MIGRATIONS, DEFAULT_POSTGRES_MIGRATIONS } from "./settings.ts"

/** A migrations folder that is missing, empty or unreadable, or a migration that failed (nothing of it applied). */
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

/** What applying migrations needs of one database, inside the transaction the caller holds. */
export interface MigrationSteps {
  /** The names `d1_migrations` records. */
  recorded(): Promise<string[]>
  /** Runs a migration file's SQL. */
  run(sql: string): Promise<unknown>
  /** Records a migration's name in `d1_migrations`. */
  record(name: string): Promise<unknown>
}

/**
 * Runs, in name order, the `files` of `directory` that the database does not record, recording each; answers their
 * names. A failing file throws a MigrationsError naming it: the caller's transaction then applies none of them.
 */
export async function applyPending(directory: string, files: readonly string[], steps: MigrationSteps) {
  const applied = new Set(await steps.recorded())
  const pending = files.filter((file) => !applied.has(file))
  for (const file of pending) {
    try {
      await steps.run(await readFile(path.join(directory, file), "utf8"))
    } catch (error) {
      throw new MigrationsError(`migration ${file} failed, nothing was applied: ${error}`)
    }
    await steps.record(file)
  }
  return pending
}
