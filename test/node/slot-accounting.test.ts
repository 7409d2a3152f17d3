import type { Client } from "@libsql/client"
import type pg from "pg"
import { afterAll, beforeAll, describe } from "vitest"
import { d1OverLibsql } from "../../src/infra/node/libsql/libsql-binding.ts"
import { d1OverPostgres } from "../../src/infra/node/postgres/postgres-binding.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres/postgres-migrations.ts"
import { slotAccountingScenarios } from "../support/slot-accounting-scenarios.ts"
import { migratedDatabase } from "./engines.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

// The same scenarios run on D1 in workerd: test/jobs/accounting.test.ts.
describe("every due slot accounted for in the container, on libSQL", () => {
  let client: Client
  beforeAll(async () => {
    client = (await migratedDatabase()).client
  })
  afterAll(() => client.close())
  slotAccountingScenarios(() => d1OverLibsql(client))
})

describe("every due slot accounted for in the container, on a PostgreSQL server", () => {
  let pool: pg.Pool
  beforeAll(async () => {
    pool = await containerPool(await freshPostgresDatabase())
    await applyPostgresMigrations(pool, "migrations/postgres")
  })
  afterAll(() => pool.end())
  slotAccountingScenarios(() => d1OverPostgres(pool))
})
