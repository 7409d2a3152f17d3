/** The container's database unless SLOTWISE_DATABASE_URL names another: an embedded SQLite file. */
export const DEFAULT_DATABASE_URL = "file:.slotwise/slotwise.db"

const LIBSQL_SCHEMES = ["file:", "libsql:", "http:", "https:", "ws:", "wss:"]
const POSTGRES_SCHEMES = ["postgres:", "postgresql:"]

/** Whether SLOTWISE_DATABASE_URL names a PostgreSQL server (postgres:// or postgresql://). */
export const isPostgresUrl = (url: string): boolean => POSTGRES_SCHEMES.some((scheme) => url.startsWith(`${scheme}//`))

/** SLOTWISE_DATABASE_URL names no database the container can open; the message names the variable and the schemes. */
export class DatabaseUrlError extends Error {
  override name = "DatabaseUrlError"
}

/**
 * Throws DatabaseUrlError naming SLOTWISE_DATABASE_URL unless `url` is one libSQL opens: a SQLite
 * file (`file:`) or a libSQL server (`libsql:`, http, ws).
 *
 * @example
 * ```ts
 * assertLibsqlUrl("file:.slotwise/slotwise.db") // passes; "mysql://db" throws
 * ```
 */
export function assertLibsqlUrl(url: unknown): asserts url is string {
  if (typeof url !== "string" || !LIBSQL_SCHEMES.some((scheme) => url.startsWith(scheme))) {
    throw new DatabaseUrlError(
      `SLOTWISE_DATABASE_URL must start with ${LIBSQL_SCHEMES.join(", ")} (a SQLite file or a libSQL server) or ${POSTGRES_SCHEMES.join(", ")} (PostgreSQL), got ${JSON.stringify(url)}`,
    )
  }
}
