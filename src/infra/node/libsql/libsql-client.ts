import { mkdirSync } from "node:fs"
import path from "node:path"
import type { Client } from "@libsql/client"
import { assertLibsqlUrl, DEFAULT_DATABASE_URL } from "../database-url.ts"

/**
 * How long a statement waits for another process's lock on the same file before it fails with
 * SQLITE_BUSY: replicas sharing one file take turns instead of failing their claims.
 */
export const BUSY_TIMEOUT_MS = 5_000

/**
 * Opens the container's database through libSQL: a `file:` URL is an embedded SQLite file (its
 * folder created, switched to WAL so readers never block the one writer), a `libsql://` (or
 * http/ws) URL a libSQL server several hosts share. Throws DatabaseUrlError naming
 * SLOTWISE_DATABASE_URL for anything else.
 *
 * @example
 * ```ts
 * const client = await openLibsql(process.env.SLOTWISE_DATABASE_URL) // default file:.slotwise/slotwise.db
 * ```
 */
export async function openLibsql(url: string = DEFAULT_DATABASE_URL): Promise<Client> {
  assertLibsqlUrl(url)
  const file = localFile(url)
  if (file !== undefined) mkdirSync(path.dirname(file), { recursive: true })
  // Loaded only for libSQL: a container on PostgreSQL needs no @libsql/client.
  const { createClient } = await import("@libsql/client")
  const client = createClient({ url, timeout: BUSY_TIMEOUT_MS })
  if (file !== undefined) await client.execute("PRAGMA journal_mode = WAL")
  return client
}

/** The path of a `file:` URL (relative, `file:/abs` or `file:///abs`), or undefined for a server or memory. */
function localFile(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined
  const file = (url.slice("file:".length).split("?")[0] ?? "").replace(/^\/\/(localhost)?(?=\/)/, "")
  return file === "" || file === ":memory:" ? undefined : file
}
