import { d1OverLibsql } from "./d1.ts"
import { d1OverPostgres } from "./d1-postgres.ts"
import { isPostgresUrl, openDatabase } from "./database.ts"
import { applyMigrations } from "./migrations.ts"
import { applyPostgresMigrations, openPostgres, type PostgresSettings } from "./postgres.ts"

/** The container's database, whichever engine: jobs and admin see only its D1 binding. */
export interface ContainerDatabase {
  /** A D1 binding over it: the Worker's code runs unchanged. */
  d1: D1Database
  /** Applies the migrations of `directory` not yet recorded, once across replicas; answers the names applied. */
  migrate(directory: string): Promise<string[]>
  close(): Promise<void>
}

/**
 * Opens SLOTWISE_DATABASE_URL's database: PostgreSQL for postgres:// and postgresql:// (a bounded
 * pool), else libSQL (an embedded file by default, or a libSQL server).
 *
 * @example
 * ```ts
 * const database = await openContainerDatabase({ databaseUrl: "postgres://app@db/app", poolMax: 10, statementTimeoutMs: 10_000, connectTimeoutMs: 5_000 })
 * await database.migrate("migrations/postgres")
 * ```
 */
export async function openContainerDatabase(
  settings: { databaseUrl: string } & PostgresSettings,
): Promise<ContainerDatabase> {
  if (isPostgresUrl(settings.databaseUrl)) {
    const pool = await openPostgres(settings.databaseUrl, settings)
    return {
      d1: d1OverPostgres(pool),
      migrate: (directory) => applyPostgresMigrations(pool, directory),
      close: () => pool.end(),
    }
  }
  const client = await openDatabase(settings.databaseUrl)
  return {
    d1: d1OverLibsql(client),
    migrate: (directory) => applyMigrations(client, directory),
    close: async () => client.close(),
  }
}
