import type { Client } from "@libsql/client"
import { PgDialect } from "drizzle-orm/pg-core"
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { slotClaimStatement } from "../../src/infra/jobs/protocol/slot-claim.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres/postgres-migrations.ts"
import { openPostgres } from "../../src/infra/node/postgres/postgres-pool.ts"
import { type ClaimEngine, claimScenarios } from "../support/claim-scenarios.ts"
import { libsqlEngine, migratedDatabase, pgliteEngine } from "./engines.ts"
import { containerPostgresEngine, freshPostgresDatabase } from "./postgres-database.ts"

// The same scenarios run on D1 in workerd: test/jobs/claim-engines.test.ts.
describe("the claim statement on libSQL (the container's SQLite file)", () => {
  let client: Client
  beforeAll(async () => {
    client = (await migratedDatabase()).client
  })
  afterAll(() => client.close())
  claimScenarios(() => libsqlEngine(client))
})

describe("the claim statement on Postgres (PGlite, in process)", () => {
  let postgres: { engine: ClaimEngine; close: () => Promise<void> }
  beforeAll(async () => {
    postgres = await pgliteEngine()
  })
  afterAll(() => postgres.close())
  claimScenarios(() => postgres.engine)
})

// The suite's global setup (postgres-server.ts) always starts a server (from npm), or uses the one you named.
describe("the claim statement on a Postgres server, as the container runs it", () => {
  let pool: pg.Pool
  beforeAll(async () => {
    // 20 connections, so that 20 concurrent claims really are concurrent.
    pool = await openPostgres(await freshPostgresDatabase(), {
      poolMax: 20,
      statementTimeoutMs: 10_000,
      connectTimeoutMs: 5_000,
    })
    await applyPostgresMigrations(pool, "migrations/postgres")
  })
  afterAll(() => pool.end())
  claimScenarios(() => containerPostgresEngine(pool))
})

describe("the claim statement", () => {
  it("is one SQL text on SQLite and Postgres, only the placeholders numbered differently", () => {
    for (const now of [2, undefined]) {
      const statement = slotClaimStatement({ name: "a", slot: 1, leaseMs: 3, holder: "h", ...(now ? { now } : {}) })
      const sqlite = new SQLiteAsyncDialect().sqlToQuery(statement)
      const postgres = new PgDialect().sqlToQuery(statement)
      expect(postgres.sql.replace(/\$\d+/g, "?")).toBe(sqlite.sql)
      expect(postgres.params).toEqual(sqlite.params)
      expect(sqlite.sql).toMatch(
        /^insert into jobs_leases .*\sfrom json_each\(\?\) as job\b.*\son conflict \(name\) do update\s.*\sreturning name, last_run_slot, hour_start,\s.* as unfolded_history, .* as unfolded_hour$/s,
      )
    }
  })
})
