import type { Client } from "@libsql/client"
import type pg from "pg"
import { afterAll, beforeAll, describe } from "vitest"
import { d1OverLibsql } from "../../src/infra/node/libsql/libsql-binding.ts"
import { d1OverPostgres } from "../../src/infra/node/postgres/postgres-binding.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres/postgres-migrations.ts"
import { leaseReleaseClockScenarios } from "../support/lease-release-scenarios.ts"
import { migratedDatabase } from "./engines.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

// The same scenarios run on D1 in workerd: test/admin/lease-release-clock.test.ts.
describe("admin's lease release on libSQL (the container's SQLite file), judged by its clock", () => {
  let client: Client
  beforeAll(async () => {
    client = (await migratedDatabase()).client
  })
  afterAll(() => client.close())
  leaseReleaseClockScenarios(() => d1OverLibsql(client))
})

describe("admin's lease release on a PostgreSQL server, judged by its clock", () => {
  let pool: pg.Pool
  beforeAll(async () => {
    pool = await containerPool(await freshPostgresDatabase())
    await applyPostgresMigrations(pool, "migrations/postgres")
  })
  afterAll(() => pool.end())
  leaseReleaseClockScenarios(() => d1OverPostgres(pool))
})
