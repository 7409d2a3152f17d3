import { toMillis } from "../duration.ts"
import { DEFAULT_DATABASE_URL, isPostgresUrl } from "./database-url.ts"

/** What `npm run start:node` and the image read from the environment. */
export interface ContainerSettings {
  /** SLOTWISE_DATABASE_URL: a SQLite file or libSQL server (file:, libsql:, http(s):, ws(s):) or PostgreSQL (postgres://); default file:.slotwise/slotwise.db. */
  databaseUrl: string
  /** PORT: the port the server listens on (default 8787; 0 picks a free one). */
  port: number
  /** HOST: the address the server binds (default 127.0.0.1; 0.0.0.0 in the image). */
  hostname: string
  /** The migrations folder: the D1 migrations, or on PostgreSQL their twins (default migrations/postgres). */
  migrations: string
  /** PostgreSQL only: the most connections one replica's pool opens. */
  poolMax: number
  /** PostgreSQL only: the statement_timeout set on every connection, in ms. */
  statementTimeoutMs: number
  /** PostgreSQL only: how long opening a connection may take, in ms. */
  connectTimeoutMs: number
}

export const DEFAULT_PORT = 8787
export const DEFAULT_HOSTNAME = "127.0.0.1"
export const DEFAULT_MIGRATIONS = "migrations"
export const DEFAULT_POSTGRES_MIGRATIONS = "migrations/postgres"
export const DEFAULT_POOL_MAX = 10
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000

export class SettingsError extends Error {
  override name = "SettingsError"
}

const unset = (value: string | undefined): value is undefined => value === undefined || value === ""

/** An integer in [min, max] from the variable `name`, or `fallback` when it is unset. */
function integerSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
) {
  const raw = env[name]
  const value = unset(raw) ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SettingsError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`)
  }
  return value
}

/** Milliseconds ("10000") or a duration ("10 seconds") from the variable `name`, at least 1 s and at most an hour. */
function durationSetting(env: Record<string, string | undefined>, name: string, fallback: number) {
  const raw = env[name]
  const value = unset(raw) ? fallback : /^\d+$/.test(raw.trim()) ? Number(raw) : toMillis(raw)
  if (value === undefined || value < 1_000 || value > 3_600_000) {
    throw new SettingsError(
      `${name} must be milliseconds or a duration such as "10 seconds", from 1 second to 1 hour, got ${JSON.stringify(raw)}`,
    )
  }
  return value
}

/**
 * The container's settings from its environment: SLOTWISE_DATABASE_URL (default an embedded file
 * under .slotwise/; postgres:// or postgresql:// for PostgreSQL), PORT (default 8787), HOST (default
 * 127.0.0.1; the image sets 0.0.0.0), SLOTWISE_MIGRATIONS (default ./migrations, or ./migrations/postgres
 * for PostgreSQL) and, for PostgreSQL, SLOTWISE_DATABASE_POOL_MAX (default 10),
 * SLOTWISE_DATABASE_STATEMENT_TIMEOUT (default 10 s) and SLOTWISE_DATABASE_CONNECT_TIMEOUT (default 5 s).
 * Throws SettingsError naming the variable.
 *
 * @example
 * ```ts
 * const { databaseUrl, port } = containerSettings(process.env)
 * ```
 */
export function containerSettings(env: Record<string, string | undefined>): ContainerSettings {
  const port = unset(env.PORT) ? DEFAULT_PORT : Number(env.PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SettingsError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`)
  }
  const databaseUrl = env.SLOTWISE_DATABASE_URL || DEFAULT_DATABASE_URL
  return {
    databaseUrl,
    port,
    hostname: env.HOST || DEFAULT_HOSTNAME,
    migrations:
      env.SLOTWISE_MIGRATIONS || (isPostgresUrl(databaseUrl) ? DEFAULT_POSTGRES_MIGRATIONS : DEFAULT_MIGRATIONS),
    poolMax: integerSetting(env, "SLOTWISE_DATABASE_POOL_MAX", DEFAULT_POOL_MAX, 1, 1_000),
    statementTimeoutMs: durationSetting(env, "SLOTWISE_DATABASE_STATEMENT_TIMEOUT", DEFAULT_STATEMENT_TIMEOUT_MS),
    connectTimeoutMs: durationSetting(env, "SLOTWISE_DATABASE_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT_MS),
  }
}
