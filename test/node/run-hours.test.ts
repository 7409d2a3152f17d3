import type { Client } from "@libsql/client"
import type pg from "pg"
import { afterAll, beforeAll, describe } from "vitest"
import { d1OverLibsql } from "../../src/infra/node/d1.ts"
import { d1OverPostgres } from "../../src/infra/node/d1-postgres.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres.ts"
import { runHourScenarios } from "../support/run-hour-scenarios.ts"
import { migratedDatabase } from "./engines.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

// The same scenarios run on D1 in workerd: test/jobs/run-hours.test.ts.
describe("a job's hourly history in the container, on libSQL", () => {
  let client: Client
  beforeAll(async () => {
    client = (await migratedDatabase()).client
  })
  afterAll(() => client.close())
  runHourScenarios(() => d1OverLibsql(client))
})

describe("a job's hourly history in the container, on a PostgreSQL server", () => {
  let pool: pg.Pool
  beforeAll(async () => {
    pool = await containerPool(await freshPostgresDatabase())
    await applyPostgresMigrations(pool, "migrations/postgres")
  })
  afterAll(() => pool.end())
  runHourScenarios(() => d1OverPostgres(pool))
})
