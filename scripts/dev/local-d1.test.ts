import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { getPlatformProxy } from "wrangler"
import { applyLocalD1Migrations, applyPendingMigrations } from "./local-d1.ts"
import { ROOT, runWranglerQuietly } from "./wrangler.ts"

const WRANGLER_TIMEOUT_MS = 120_000

describe("npm start's local D1 migrations, through one local runtime", () => {
  it("applies every file once, in name order, recorded where `wrangler d1 migrations apply` looks", async () => {
    const persist = mkdtempSync(path.join(tmpdir(), "slotwise-local-d1-"))
    const files = readdirSync(path.join(ROOT, "migrations"))
      .filter((file) => file.endsWith(".sql"))
      .sort()
    expect(await applyLocalD1Migrations(path.join(persist, "v3"))).toEqual(files)
    expect(await applyLocalD1Migrations(path.join(persist, "v3"))).toEqual([])
    // wrangler's own command, on the same local state, finds nothing left to apply.
    const output = await runWranglerQuietly(
      ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist],
      WRANGLER_TIMEOUT_MS,
      { CI: "true" },
    )
    expect(output).toContain("No migrations to apply")
  })

  it("applies nothing of a file that fails, names it, and keeps the files before it", async () => {
    const proxy = await getPlatformProxy<{ DB: D1Database }>({
      configPath: path.join(ROOT, "wrangler.toml"),
      persist: false,
      envFiles: [],
      remoteBindings: false,
    })
    try {
      const db = proxy.env.DB
      const migrations = [
        { name: "0001_ok.sql", queries: ["CREATE TABLE ok (id INTEGER)"] },
        { name: "0002_bad.sql", queries: ["CREATE TABLE fine (id INTEGER)", "CREATE TABLE oops ("] },
      ]
      await expect(applyPendingMigrations(db, migrations)).rejects.toThrow(
        "migration 0002_bad.sql failed, nothing of it was applied",
      )
      const tables = await db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ok', 'fine', 'oops') ORDER BY name")
        .all<{ name: string }>()
      expect(tables.results.map((row) => row.name)).toEqual(["ok"])
      const recorded = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()
      expect(recorded.results.map((row) => row.name)).toEqual(["0001_ok.sql"])
    } finally {
      await proxy.dispose()
    }
  })
})
