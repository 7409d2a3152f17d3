import { copyFileSync, mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import type { Client } from "@libsql/client"
import type pg from "pg"
import { afterAll, beforeAll, describe } from "vitest"
import { d1OverLibsql } from "../../src/infra/node/libsql/libsql-binding.ts"
import { openLibsql } from "../../src/infra/node/libsql/libsql-client.ts"
import { applyLibsqlMigrations } from "../../src/infra/node/libsql/libsql-migrations.ts"
import { d1OverPostgres } from "../../src/infra/node/postgres/postgres-binding.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres/postgres-migrations.ts"
import { inPreviousSchema, sinceRelease } from "../support/previous-schema.ts"
import { previousSchemaScenarios } from "../support/previous-schema-scenarios.ts"
import { freshFileUrl } from "./engines.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

/** A folder holding the app's migrations of `from` that the previous release's schema had. */
function previousSchemaFolder(from: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-previous-schema-"))
  for (const name of readdirSync(from).filter((name) => name.endsWith(".sql") && inPreviousSchema(name)))
    copyFileSync(path.join(from, name), path.join(dir, name))
  return dir
}

const since = () => sinceRelease(readdirSync("src/infra/migrations").filter((name) => name.endsWith(".sql")))

// The same scenarios run on D1 in workerd: test/compat/previous-schema.test.ts.
describe("today's statements on libSQL with only the previous release's migrations", () => {
  let client: Client
  beforeAll(async () => {
    client = await openLibsql(freshFileUrl())
    await applyLibsqlMigrations(client, previousSchemaFolder("migrations"))
  })
  afterAll(() => client.close())
  previousSchemaScenarios(() => d1OverLibsql(client), since)
})

describe("today's statements on a PostgreSQL server with only the previous release's migrations", () => {
  let pool: pg.Pool
  beforeAll(async () => {
    pool = await containerPool(await freshPostgresDatabase())
    await applyPostgresMigrations(pool, previousSchemaFolder("migrations/postgres"))
  })
  afterAll(() => pool.end())
  previousSchemaScenarios(() => d1OverPostgres(pool), since)
})
