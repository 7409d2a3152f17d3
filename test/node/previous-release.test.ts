import type { Client } from "@libsql/client"
import type pg from "pg"
import { afterAll, beforeAll, describe } from "vitest"
import { d1OverLibsql } from "../../src/infra/node/libsql/libsql-binding.ts"
import { d1OverPostgres } from "../../src/infra/node/postgres/postgres-binding.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres/postgres-migrations.ts"
import { COMPAT_EFFECTS_TABLE, previousReleaseScenarios } from "../support/previous-release-scenarios.ts"
import { rolloutHistoryScenarios } from "../support/rollout-history-scenarios.ts"
import { migratedDatabase } from "./engines.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

// The same scenarios run on D1 in workerd: test/compat/previous-release.test.ts.
describe("0.1.0's engine statements on libSQL with today's full schema, beside today's", () => {
  let client: Client
  beforeAll(async () => {
    client = (await migratedDatabase()).client
    await client.execute(COMPAT_EFFECTS_TABLE)
  })
  afterAll(() => client.close())
  previousReleaseScenarios(() => d1OverLibsql(client))
  rolloutHistoryScenarios(() => d1OverLibsql(client))
})

describe("0.1.0's engine statements on a PostgreSQL server with today's full schema, beside today's", () => {
  let pool: pg.Pool
  beforeAll(async () => {
    pool = await containerPool(await freshPostgresDatabase())
    await applyPostgresMigrations(pool, "migrations/postgres")
    await pool.query(COMPAT_EFFECTS_TABLE)
  })
  afterAll(() => pool.end())
  previousReleaseScenarios(() => d1OverPostgres(pool))
  rolloutHistoryScenarios(() => d1OverPostgres(pool))
})
