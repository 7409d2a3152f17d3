import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import type { InArgs } from "@libsql/client"
import { describe, expect, it } from "vitest"
import { DatabaseUrlError } from "../../src/infra/node/database-url.ts"
import { openLibsql } from "../../src/infra/node/libsql/libsql-client.ts"
import { applyLibsqlMigrations } from "../../src/infra/node/libsql/libsql-migrations.ts"
import { copyCommand, MigrationsError } from "../../src/infra/node/migration-files.ts"
import { numberPlaceholders } from "../../src/infra/node/postgres/placeholders.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres/postgres-migrations.ts"
import type { ClaimEngine } from "../support/claim-engine.ts"
import { freshFileUrl, libsqlEngine } from "./engines.ts"
import { containerPool, containerPostgresEngine, freshPostgresDatabase } from "./postgres-database.ts"

const folder = (files: Record<string, string>) => {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-migrations-"))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}

const MINUTE = 60_000

// Two replicas migrating one file at once are separate processes: test/node/main.test.ts.
describe("the container's migrations", () => {
  it("applies each file once, in name order, recorded in d1_migrations as wrangler records them", async () => {
    const client = await openLibsql(freshFileUrl())
    const applied = await applyLibsqlMigrations(client, "migrations")
    expect(applied[0]).toBe("0001_slotwise_jobs_leases.sql")
    expect(applied).toEqual([...applied].sort())
    expect(await applyLibsqlMigrations(client, "migrations")).toEqual([])
    const recorded = await client.execute("SELECT name FROM d1_migrations ORDER BY id")
    expect(recorded.rows.map((row) => row.name)).toEqual(applied)
    expect((await client.execute("PRAGMA journal_mode")).rows[0]?.journal_mode).toBe("wal")
    client.close()
  })

  it("applies nothing of a run whose file fails, and names the file", async () => {
    const client = await openLibsql(freshFileUrl())
    const dir = folder({ "0001_ok.sql": "CREATE TABLE ok (id INTEGER);", "0002_bad.sql": "CREATE TABLE oops (" })
    await expect(applyLibsqlMigrations(client, dir)).rejects.toThrow(MigrationsError)
    await expect(applyLibsqlMigrations(client, dir)).rejects.toThrow(/0002_bad\.sql failed, nothing was applied/)
    const tables = await client.execute("SELECT name FROM sqlite_master WHERE name IN ('ok', 'd1_migrations')")
    expect(tables.rows).toEqual([])
    client.close()
  })

  it("names the folder it cannot read, and the variable of a URL it cannot open", async () => {
    const client = await openLibsql(freshFileUrl())
    await expect(applyLibsqlMigrations(client, "no/such/folder")).rejects.toThrow(
      /migrations folder "no\/such\/folder"/,
    )
    client.close()
    await expect(openLibsql("postgres://somewhere/db")).rejects.toThrow(DatabaseUrlError)
    await expect(openLibsql("postgres://somewhere/db")).rejects.toThrow(/SLOTWISE_DATABASE_URL/)
  })

  it("says, on a first start without migrations, the one command that copies them into the folder", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "slotwise-first-start-"))
    const inProject = (dir: string) => path.join(cwd, dir)
    const client = await openLibsql(freshFileUrl())
    await expect(applyLibsqlMigrations(client, inProject("migrations"))).rejects.toThrow(
      `the migrations folder ${JSON.stringify(inProject("migrations"))} (${inProject("migrations")}) does not exist: copy slotwise's migrations into it with \`npx slotwise-migrations ${inProject("migrations")}\`, then start again`,
    )
    await expect(applyLibsqlMigrations(client, folder({ "README.md": "" }))).rejects.toThrow(
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

/** A folder holding the migrations of `from` that come before `file`. */
const before = (from: string, file: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-migrations-"))
  for (const name of readdirSync(from).filter((name) => name.endsWith(".sql") && name < file))
    copyFileSync(path.join(from, name), path.join(dir, name))
  return dir
}

const DATABASE_CLOCK = "0010_slotwise_jobs_database_clock.sql"
const KEEP_UNRELEASED = "0015_slotwise_jobs_keep_unreleased.sql"

/**
 * The database-clock migration on one engine: the rows a claimant's clock wrote before it, and what the
 * claim makes of them after. `run` executes SQL with `?` placeholders on that engine.
 */
function databaseClockMigration(
  open: () => Promise<{
    migrate: (folder: string) => Promise<string[]>
    run: (sql: string, args?: unknown[]) => Promise<Array<Record<string, unknown>>>
    engine: ClaimEngine
    folder: string
    close: () => Promise<void>
  }>,
) {
  it("sets a last_slot left ahead of the database's clock back to it, judges an old lease as the longest, and keeps lower_slot and jump_start (0.1.0 writes them)", async () => {
    const db = await open()
    try {
      await db.migrate(before(db.folder, DATABASE_CLOCK))
      const now = Date.now()
      const minute = now - (now % MINUTE)
      // name, last_slot, lease_until, holder, lower_slot, jump_start: as 0.1.0's claim left them.
      const rows: Array<[string, number, number | null, string | null, number | null, number | null]> = [
        ["stuck", minute + 24 * 60 * MINUTE, null, null, minute - MINUTE, minute + 24 * 60 * MINUTE],
        ["on-time", minute - MINUTE, null, null, minute - 2 * MINUTE, null],
        ["held", minute, now + 5 * MINUTE, "old-run", null, null],
        ["far-lease", minute, now + 24 * 60 * MINUTE, "ahead-run", null, null],
      ]
      for (const row of rows)
        await db.run(
          "INSERT INTO jobs_leases (name, last_slot, lease_until, holder, lower_slot, jump_start) VALUES (?, ?, ?, ?, ?, ?)",
          row,
        )
      const migrated = Date.now()
      expect((await db.migrate(db.folder))[0]).toBe(DATABASE_CLOCK)
      const after = Date.now()
      const read = await db.run("SELECT * FROM jobs_leases ORDER BY name")
      const of = (name: string) => read.find((row) => row.name === name)
      expect(Number(of("stuck")?.last_slot)).toBeGreaterThanOrEqual(migrated - 1)
      expect(Number(of("stuck")?.last_slot)).toBeLessThanOrEqual(after + 1)
      // Expand only: 0.1.0's columns stay; the gap a set-back last_slot no longer stands above is cleared.
      expect(of("stuck")).toMatchObject({ lower_slot: null, jump_start: null })
      expect(of("on-time")).toMatchObject({ last_slot: minute - MINUTE, lease_ms: null })
      expect(Number(of("on-time")?.lower_slot)).toBe(minute - 2 * MINUTE)
      expect(of("held")).toMatchObject({ lease_ms: 960_000, holder: "old-run", lower_slot: null, jump_start: null })
      // The next minute claims as ever: the job is no longer blocked for a day, a live old lease is held,
      // and a lease ending a day ahead (more than twice the longest lease) is reclaimed.
      const next = minute + MINUTE
      const claim = (name: string, holder: string) =>
        db.engine.claim({ name, slot: next, now: next + 1_000, leaseMs: 30_000, holder })
      expect(await claim("stuck", "run-stuck")).toBe(true)
      expect(await claim("held", "run-held")).toBe(false)
      expect(await claim("far-lease", "run-far")).toBe(true)
    } finally {
      await db.close()
    }
  })

  it("keeps the slot of a 0.1.0 clock-jump lease held when migration 0012 is applied, and only that one (helper-18)", async () => {
    const db = await open()
    try {
      await db.migrate(before(db.folder, KEEP_UNRELEASED))
      const now = Date.now()
      const minute = now - (now % MINUTE)
      const [recorded, lower] = [minute - MINUTE, minute - 30 * MINUTE]
      // name, last_slot, lease_until, holder, lower_slot: 0.1.0's clock-jump claim of `lower` (its lease ends
      // before last_slot), a forward claim of last_slot (its lease ends after it), and a lease released.
      const rows: Array<[string, number, number | null, string | null, number]> = [
        ["clock-jump", recorded, lower + 61_000, "old-low", lower],
        ["forward", recorded, recorded + 31_000, "old-forward", lower],
        ["released", recorded, null, null, lower],
      ]
      for (const row of rows)
        await db.run(
          "INSERT INTO jobs_leases (name, last_slot, lease_until, holder, lower_slot) VALUES (?, ?, ?, ?, ?)",
          row,
        )
      expect((await db.migrate(db.folder))[0]).toBe(KEEP_UNRELEASED)
      const kept = async () =>
        Object.fromEntries(
          (await db.run("SELECT name, held_lower_slot, unreleased_slots FROM jobs_leases ORDER BY name")).map((row) => [
            row.name,
            [row.held_lower_slot === null ? null : Number(row.held_lower_slot), row.unreleased_slots],
          ]),
        )
      expect(await kept()).toEqual({
        "clock-jump": [lower, String(lower)],
        forward: [null, null],
        released: [null, null],
      })
      // Today's claims take the two ended leases: each keeps the slot its holder held, once.
      for (const name of ["clock-jump", "forward", "released"])
        expect(
          await db.engine.claim({ name, slot: minute, now: Date.now(), leaseMs: 30_000, holder: `t-${name}` }),
        ).toBe(true)
      expect(await kept()).toEqual({
        "clock-jump": [null, String(lower)],
        forward: [null, String(recorded)],
        released: [null, null],
      })
    } finally {
      await db.close()
    }
  })
}

describe("migrations 0010 (the database's clock) and 0012 (unreleased slots kept) on libSQL", () => {
  databaseClockMigration(async () => {
    const client = await openLibsql(freshFileUrl())
    return {
      folder: "migrations",
      migrate: (folder) => applyLibsqlMigrations(client, folder),
      run: async (sql, args = []) =>
        (await client.execute({ sql, args: args as InArgs })).rows.map((row) => ({ ...row })),
      engine: libsqlEngine(client),
      close: async () => client.close(),
    }
  })
})

describe("migrations 0010 (the database's clock) and 0012 (unreleased slots kept) on a PostgreSQL server", () => {
  databaseClockMigration(async () => {
    const pool = await containerPool(await freshPostgresDatabase())
    return {
      folder: "migrations/postgres",
      migrate: (folder) => applyPostgresMigrations(pool, folder),
      run: async (sql, args = []) => (await pool.query(numberPlaceholders(sql), args)).rows,
      engine: containerPostgresEngine(pool),
      close: () => pool.end(),
    }
  })

  it("defines unixepoch('now', 'subsec') as SQLite does, and refuses any other call", async () => {
    const pool = await containerPool(await freshPostgresDatabase())
    try {
      await applyPostgresMigrations(pool, "migrations/postgres")
      const before = Date.now()
      const { rows } = await pool.query("SELECT unixepoch('now', 'subsec') AS at")
      const after = Date.now()
      expect(rows[0].at * 1000).toBeGreaterThanOrEqual(before - 1)
      expect(rows[0].at * 1000).toBeLessThanOrEqual(after + 1)
      await expect(pool.query("SELECT unixepoch('2026-01-01', 'subsec')")).rejects.toThrow(
        /only unixepoch\('now', 'subsec'\)/,
      )
      await expect(pool.query("SELECT unixepoch('now', 'utc')")).rejects.toThrow(/only unixepoch/)
    } finally {
      await pool.end()
    }
  })
})
