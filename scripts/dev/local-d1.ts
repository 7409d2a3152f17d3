import { readdir, readFile } from "node:fs/promises"
import path from "node:path"
import { getPlatformProxy, unstable_splitSqlQuery } from "wrangler"
import { ROOT } from "./wrangler.ts"

/** One migration file: its name and its statements, split as wrangler splits them. */
export interface D1Migration {
  name: string
  queries: string[]
}

/** The table `wrangler d1 migrations apply` records applied files in, created as wrangler creates it. */
const MIGRATIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS d1_migrations(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)"

/**
 * Applies, in name order, the migrations `d1_migrations` does not record: each file's statements and
 * its record in one batch, all or nothing, as `wrangler d1 migrations apply` does. Answers the names applied.
 */
export async function applyPendingMigrations(db: D1Database, migrations: readonly D1Migration[]): Promise<string[]> {
  await db.prepare(MIGRATIONS_TABLE).run()
  const recorded = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()
  const applied = new Set(recorded.results.map((row) => row.name))
  const pending = [...migrations].sort((a, b) => (a.name < b.name ? -1 : 1)).filter(({ name }) => !applied.has(name))
  for (const { name, queries } of pending) {
    try {
      await db.batch([
        ...queries.map((query) => db.prepare(query)),
        db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name),
      ])
    } catch (error) {
      throw new Error(`migration ${name} failed, nothing of it was applied`, { cause: error })
    }
  }
  return pending.map(({ name }) => name)
}

/** The `*.sql` files of `folder` (wrangler.toml's migrations_dir), each split into statements by wrangler's splitter. */
async function readMigrations(folder: string): Promise<D1Migration[]> {
  const files = (await readdir(folder)).filter((file) => file.endsWith(".sql"))
  return Promise.all(
    files.map(async (name) => ({
      name,
      queries: unstable_splitSqlQuery(await readFile(path.join(folder, name), "utf8")),
    })),
  )
}

/**
 * Applies wrangler.toml's DB migrations to the local D1 that `wrangler dev` uses (`.wrangler/state/v3`,
 * or `persistPath`), through one local runtime for all of them: `wrangler d1 migrations apply --local`
 * starts one per file, about a second each.
 */
export async function applyLocalD1Migrations(persistPath?: string): Promise<string[]> {
  const proxy = await getPlatformProxy<{ DB: D1Database }>({
    configPath: path.join(ROOT, "wrangler.toml"),
    persist: persistPath === undefined ? true : { path: persistPath },
    envFiles: [],
    remoteBindings: false,
  })
  try {
    return await applyPendingMigrations(proxy.env.DB, await readMigrations(path.join(ROOT, "migrations")))
  } finally {
    await proxy.dispose()
  }
}
