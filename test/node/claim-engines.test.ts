import type { Client } from "@libsql/client"
import { PgDialect } from "drizzle-orm/pg-core"
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { claimStatement } from "../../src/infra/jobs/claim.ts"
import { type ClaimEngine, claimScenarios } from "../support/claim-scenarios.ts"
import { libsqlEngine, migratedDatabase, pgliteEngine, postgresServerEngine } from "./engines.ts"

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

// The suite's global setup (postgres-server.ts) always sets this: its own server from npm, or the one you named.
describe("the claim statement on a Postgres server", () => {
  let postgres: { engine: ClaimEngine; close: () => Promise<void> }
  beforeAll(async () => {
    const serverUrl = process.env.SLOTWISE_TEST_POSTGRES_URL
    if (!serverUrl)
      throw new Error("SLOTWISE_TEST_POSTGRES_URL is unset: the Node suite's global setup starts a server")
    postgres = await postgresServerEngine(serverUrl)
  })
  afterAll(() => postgres.close())
  claimScenarios(() => postgres.engine)
})

describe("the claim statement", () => {
  it("is one SQL text on SQLite and Postgres, only the placeholders numbered differently", () => {
    const statement = claimStatement({ name: "a", slot: 1, now: 2, leaseMs: 3, holder: "h" })
    const sqlite = new SQLiteAsyncDialect().sqlToQuery(statement)
    const postgres = new PgDialect().sqlToQuery(statement)
    expect(postgres.sql.replace(/\$\d+/g, "?")).toBe(sqlite.sql)
    expect(postgres.params).toEqual(sqlite.params)
    expect(sqlite.sql).toMatch(/^insert into jobs_leases .*\son conflict \(name\) do update\s.*\sreturning name$/s)
  })
})
