import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { DatabaseUrlError, openDatabase } from "../../src/infra/node/database.ts"
import { applyMigrations, copyCommand, MigrationsError } from "../../src/infra/node/migrations.ts"
import { freshFileUrl, libsqlEngine } from "./engines.ts"

const folder = (files: Record<string, string>) => {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-migrations-"))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}

const MINUTE = 60_000

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

  it("makes a last_slot a jumped clock left more than an hour ahead reclaimable below itself, never itself", async () => {
    const client = await openDatabase(freshFileUrl())
    const before = mkdtempSync(path.join(tmpdir(), "slotwise-migrations-"))
    for (const file of readdirSync("migrations").filter((file) => file < "0008_"))
      copyFileSync(path.join("migrations", file), path.join(before, file))
    await applyMigrations(client, before)
    // The migration reads the database's clock, so the rows are placed around the real now.
    const now = Date.now() - (Date.now() % MINUTE)
    const ahead = now + 24 * 60 * MINUTE
    await client.execute({
      sql: "INSERT INTO jobs_leases (name, last_slot) VALUES ('stuck', ?), ('on-time', ?)",
      args: [ahead, now - MINUTE],
    })
    expect((await applyMigrations(client, "migrations"))[0]).toBe("0008_slotwise_jobs_lower_slot.sql")
    const rows = await client.execute("SELECT name, lower_slot, jump_start FROM jobs_leases ORDER BY name")
    expect(rows.rows.map((row) => ({ ...row }))).toEqual([
      { name: "on-time", lower_slot: null, jump_start: null },
      { name: "stuck", lower_slot: 0, jump_start: ahead },
    ])
    const claim = (slot: number, holder: string) =>
      libsqlEngine(client).claim({ name: "stuck", slot, now: slot + 1_000, leaseMs: 2 * MINUTE, holder })
    expect(await claim(now, "run-a")).toBe(true)
    expect(await claim(ahead, "run-b")).toBe(false)
    client.close()
  })

  it("names the folder it cannot read, and the variable of a URL it cannot open", async () => {
    const client = await openDatabase(freshFileUrl())
    await expect(applyMigrations(client, "no/such/folder")).rejects.toThrow(/migrations folder "no\/such\/folder"/)
    client.close()
    await expect(openDatabase("postgres://somewhere/db")).rejects.toThrow(DatabaseUrlError)
    await expect(openDatabase("postgres://somewhere/db")).rejects.toThrow(/SLOTWISE_DATABASE_URL/)
  })

  it("says, on a first start without migrations, the one command that copies them into the folder", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "slotwise-first-start-"))
    const inProject = (dir: string) => path.join(cwd, dir)
    const client = await openDatabase(freshFileUrl())
    await expect(applyMigrations(client, inProject("migrations"))).rejects.toThrow(
      `the migrations folder ${JSON.stringify(inProject("migrations"))} (${inProject("migrations")}) does not exist: copy slotwise's migrations into it with \`npx slotwise-migrations ${inProject("migrations")}\`, then start again`,
    )
    await expect(applyMigrations(client, folder({ "README.md": "" }))).rejects.toThrow(
      /holds no \.sql migration: copy slotwise's migrations into it with `npx slotwise-migrations \/.*`/,
    )
    client.close()
    // The default folders are left out of the command.
    expect(copyCommand("migrations", "sqlite")).toBe("npx slotwise-migrations")
    expect(copyCommand("./migrations/", "sqlite")).toBe("npx slotwise-migrations")
    expect(copyCommand("migrations/postgres", "postgres")).toBe("npx slotwise-migrations --postgres")
    expect(copyCommand("migrations", "postgres")).toBe("npx slotwise-migrations --postgres migrations")
    expect(copyCommand("db/my migrations", "sqlite")).toBe("npx slotwise-migrations 'db/my migrations'")
  })
})
