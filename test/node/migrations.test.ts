import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { DatabaseUrlError, openDatabase } from "../../src/infra/node/database.ts"
import { applyMigrations, MigrationsError } from "../../src/infra/node/migrations.ts"
import { freshFileUrl } from "./engines.ts"

const folder = (files: Record<string, string>) => {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-migrations-"))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}

// Two replicas migrating one file at once are separate processes: test/node/main.test.ts.
describe("the container's migrations", () => {
  it("applies each file once, in name order, recorded in d1_migrations as wrangler records them", async () => {
    const client = await openDatabase(freshFileUrl())
    const applied = await applyMigrations(client, "migrations")
    expect(applied[0]).toBe("0001_slotwise_jobs_leases.sql")
    expect(applied).toEqual([...applied].sort())
    expect(await applyMigrations(client, "migrations")).toEqual([])
    const recorded = await client.execute("SELECT name FROM d1_migrations ORDER BY id")
    expect(recorded.rows.map((row) => row.name)).toEqual(applied)
    expect((await client.execute("PRAGMA journal_mode")).rows[0]?.journal_mode).toBe("wal")
    client.close()
  })

  it("applies nothing of a run whose file fails, and names the file", async () => {
    const client = await openDatabase(freshFileUrl())
    const dir = folder({ "0001_ok.sql": "CREATE TABLE ok (id INTEGER);", "0002_bad.sql": "CREATE TABLE oops (" })
    await expect(applyMigrations(client, dir)).rejects.toThrow(MigrationsError)
    await expect(applyMigrations(client, dir)).rejects.toThrow(/0002_bad\.sql failed, nothing was applied/)
    const tables = await client.execute("SELECT name FROM sqlite_master WHERE name IN ('ok', 'd1_migrations')")
    expect(tables.rows).toEqual([])
    client.close()
  })

  it("names the folder it cannot read, and the variable of a URL it cannot open", async () => {
    const client = await openDatabase(freshFileUrl())
    await expect(applyMigrations(client, "no/such/folder")).rejects.toThrow(/migrations folder "no\/such\/folder"/)
    client.close()
    await expect(openDatabase("postgres://somewhere/db")).rejects.toThrow(DatabaseUrlError)
    await expect(openDatabase("postgres://somewhere/db")).rejects.toThrow(/SLOTWISE_DATABASE_URL/)
  })
})
