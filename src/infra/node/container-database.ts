import { isPostgresUrl } from "./database-url.ts"
import { d1OverLibsql } from "./libsql/libsql-binding.ts"
import { openLibsql } from "./libsql/libsql-client.ts"
import { applyLibsqlMigrations } from "./libsql/libsql-migrations.ts"
import { d1OverPostgres } from "./postgres/postgres-binding.ts"
import { applyPostgresMigrations } from "./postgres/postgres-migrations.ts"
import { openPostgres, type PostgresSettings } from "./postgres/postgres-pool.ts"

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
  const client = await openLibsql(settings.databaseUrl)
  return {
    d1: d1OverLibsql(client),
    migrate: (directory) => applyLibsqlMigrations(client, directory),
    close: async () => client.close(),
  }
}
