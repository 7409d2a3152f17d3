import { applyD1Migrations, env } from "cloudflare:test"
import { beforeAll, describe, expect, it } from "vitest"
import { inPreviousSchema, sinceRelease } from "../support/previous-schema.ts"
import { previousSchemaScenarios } from "../support/previous-schema-scenarios.ts"

const since = () => sinceRelease(env.ENGINE_MIGRATIONS.map((migration) => migration.name))

// The same scenarios run on libSQL and a PostgreSQL server in test/node/previous-schema.test.ts.
describe("today's statements on a D1 database with only the previous release's migrations", () => {
  beforeAll(async () => {
    await applyD1Migrations(
      env.PREVIOUS_SCHEMA_DB,
      env.TEST_MIGRATIONS.filter((migration) => inPreviousSchema(migration.name)),
    )
  })
  it("lacks every migration since the previous release (so the scenarios below meet the schema before them)", () => {
    expect(since().length).toBeGreaterThan(0)
    expect(since()).toContain("0007_jobs_database_clock.sql")
  })
  previousSchemaScenarios(() => env.PREVIOUS_SCHEMA_DB, since)
})
