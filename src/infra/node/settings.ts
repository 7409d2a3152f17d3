import { DEFAULT_DATABASE_URL } from "./database.ts"

/** What `npm run start:node` and the image read from the environment. */
export interface ContainerSettings {
  databaseUrl: string
  port: number
  hostname: string
  migrations: string
}

export const DEFAULT_PORT = 8787
export const DEFAULT_HOSTNAME = "127.0.0.1"
export const DEFAULT_MIGRATIONS = "migrations"

export class SettingsError extends Error {
  override name = "SettingsError"
}

/**
 * The container's settings from its environment: SLOTWISE_DATABASE_URL (default an embedded file
 * under .slotwise/), PORT (default 8787), HOST (default 127.0.0.1; the image sets 0.0.0.0) and
 * SLOTWISE_MIGRATIONS (the D1 migrations folder, default ./migrations). Throws SettingsError naming
 * the variable.
 *
 * @example
 * ```ts
 * const { databaseUrl, port } = containerSettings(process.env)
 * ```
 */
export function containerSettings(env: Record<string, string | undefined>): ContainerSettings {
  const port = env.PORT === undefined || env.PORT === "" ? DEFAULT_PORT : Number(env.PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SettingsError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`)
  }
  return {
    databaseUrl: env.SLOTWISE_DATABASE_URL || DEFAULT_DATABASE_URL,
    port,
    hostname: env.HOST || DEFAULT_HOSTNAME,
    migrations: env.SLOTWISE_MIGRATIONS || DEFAULT_MIGRATIONS,
  }
}
