import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { describeError } from "../../src/infra/log.ts"
import { MIGRATION_ADDS, missingMigration } from "../../src/infra/missing-migration.ts"

const ENGINE = "src/infra/migrations"
const sqlFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".sql"))

/** What a migration file adds that a statement could find missing: tables, columns added to a table, functions. */
function addedBy(text: string): string[] {
  return [
    ...[...text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?(\w+)"?/gi)].map((match) => match[1]!),
    ...[...text.matchAll(/ALTER TABLE "?(\w+)"? ADD COLUMN "?(\w+)"?/gi)].map((match) => `${match[1]}.${match[2]}`),
    ...[...text.matchAll(/CREATE (?:OR REPLACE )?FUNCTION "?(\w+)"?/gi)].map((match) => match[1]!),
  ]
}

describe("the migration a database error shows missing", () => {
  it("knows what every engine migration (and its PostgreSQL twin) adds, so a new migration cannot be left out", () => {
    for (const file of sqlFiles(ENGINE)) {
      const name = file.replace(/\.sql$/, "")
      const adds = new Set([
        ...addedBy(readFileSync(path.join(ENGINE, file), "utf8")),
        ...addedBy(readFileSync(path.join(ENGINE, "postgres", file), "utf8")),
      ])
      expect(
        [...(MIGRATION_ADDS[name] ?? [])].sort(),
        `${file}: MIGRATION_ADDS in src/infra/missing-migration.ts`,
      ).toEqual([...adds].sort())
    }
    expect(Object.keys(MIGRATION_ADDS).sort()).toEqual(sqlFiles(ENGINE).map((file) => file.replace(/\.sql$/, "")))
  })

  it.each([
    ["D1_ERROR: table jobs_leases has no column named lease_ms: SQLITE_ERROR", "0007_jobs_database_clock"],
    ["no such column: jobs_leases.lease_ms at offset 12: SQLITE_ERROR", "0007_jobs_database_clock"],
    ["D1_ERROR: no such table: main.jobs_run_hours: SQLITE_ERROR", "0008_jobs_run_hours"],
    ['column "lease_ms" of relation "jobs_leases" does not exist', "0007_jobs_database_clock"],
    ["column jobs_leases.lease_ms does not exist", "0007_jobs_database_clock"],
    ['relation "jobs_run_hours" does not exist', "0008_jobs_run_hours"],
    ["function unixepoch(unknown, unknown) does not exist", "0007_jobs_database_clock"],
    ['relation "once_keys" does not exist', "0006_once_keys"],
  ])("names it in %s", (text, migration) => {
    expect(missingMigration(text)).toBe(migration)
    expect(describeError(new Error(text))).toContain(`slotwise migration ${migration} is not applied`)
  })

  it.each([
    "no such column: colour",
    "no such column: invoices.last_error",
    'column "last_error" of relation "invoices" does not exist',
    "table invoices has no column named lease_ms",
    'relation "invoices" does not exist',
    "UNIQUE constraint failed: once_keys.key",
    "fetch https://h.example/ answered 503",
  ])("names none in %s, leaving the description as it was", (text) => {
    expect(missingMigration(text)).toBeUndefined()
    expect(describeError(new Error(text))).toBe(`Error: ${text}`)
  })
})
