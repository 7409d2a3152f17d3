import type { Client } from "@libsql/client"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { d1OverLibsql } from "../../src/infra/node/d1.ts"
import { d1OverPostgres } from "../../src/infra/node/d1-postgres.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres.ts"
import { ONCE_RETENTION_MS } from "../../src/infra/once.ts"
import { migratedDatabase } from "./engines.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

const NOW = Date.UTC(2026, 11, 1, 12, 0)
const SLOT = new Date(NOW)

describe("a job's ctx.once in the container, on the D1 binding over libSQL", () => {
  let client: Client
  let DB: D1Database
  beforeAll(async () => {
    client = (await migratedDatabase()).client
    DB = d1OverLibsql(client)
    await client.execute("CREATE TABLE counts (item TEXT PRIMARY KEY, n INTEGER NOT NULL)")
  })
  afterAll(() => client.close())

  const bump = (item: string) =>
    DB.prepare("INSERT INTO counts (item, n) VALUES (?1, 1) ON CONFLICT (item) DO UPDATE SET n = n + 1").bind(item)
  const countOf = async (item: string) =>
    (await DB.prepare("SELECT n FROM counts WHERE item = ?").bind(item).first("n")) ?? 0

  it("commits an item once across runs, and a refused effect writes nothing and leaves the key free", async () => {
    const answers: string[] = []
    let refuse = true
    const job = Jobs.make({
      name: "once.container",
      cron: "* * * * *",
      exclusive: false,
      timeout: 1_000,
      run: async (_slot, ctx) => {
        const refused = DB.prepare("INSERT INTO counts (item, n) VALUES ('refused', NULL)")
        answers.push((await ctx.once("item-1", refuse ? [bump("a"), refused] : [bump("a")])).status)
      },
    })
    const env = { DB } as never
    expect(await Jobs.run(job, SLOT, { env, now: () => NOW })).toMatchObject({ status: "failed" })
    expect(await countOf("a")).toBe(0)
    refuse = false
    for (const _ of [1, 2, 3]) await Jobs.run(job, SLOT, { env, now: () => NOW })
    expect(answers).toEqual(["applied", "duplicate", "duplicate"])
    expect(await countOf("a")).toBe(1)
    const key = await client.execute("SELECT key, committed_at FROM once_keys")
    expect(key.rows.map((row) => ({ ...row }))).toEqual([{ key: "job:once.container/item-1", committed_at: NOW }])
  })
})

describe("a job's ctx.once in the container, on the D1 binding over PostgreSQL", () => {
  let pool: pg.Pool
  let DB: D1Database
  beforeAll(async () => {
    pool = await containerPool(await freshPostgresDatabase())
    await applyPostgresMigrations(pool, "migrations/postgres")
    DB = d1OverPostgres(pool)
    await pool.query("CREATE TABLE counts (item TEXT PRIMARY KEY, n BIGINT NOT NULL)")
  })
  afterAll(() => pool.end())

  it("commits an item once across runs, a refused effect writes nothing, and old keys are swept", async () => {
    const bump = (item: string) =>
      DB.prepare("INSERT INTO counts (item, n) VALUES (?1, 1) ON CONFLICT (item) DO UPDATE SET n = counts.n + 1").bind(
        item,
      )
    const countOf = async (item: string) =>
      (await DB.prepare("SELECT n FROM counts WHERE item = ?").bind(item).first("n")) ?? 0
    const answers: string[] = []
    let refuse = true
    const job = Jobs.make({
      name: "once.postgres",
      cron: "* * * * *",
      exclusive: false,
      timeout: 1_000,
      run: async (_slot, ctx) => {
        const refused = DB.prepare("INSERT INTO counts (item, n) VALUES ('refused', NULL)")
        answers.push((await ctx.once("item-1", refuse ? [bump("a"), refused] : [bump("a")])).status)
      },
    })
    const env = { DB } as never
    await pool.query("INSERT INTO once_keys (key, committed_at) VALUES ('job:old/expired', $1)", [
      NOW - ONCE_RETENTION_MS - 1,
    ])
    expect(await Jobs.run(job, SLOT, { env, now: () => NOW })).toMatchObject({ status: "failed" })
    expect(await countOf("a")).toBe(0)
    refuse = false
    for (const _ of [1, 2, 3]) await Jobs.run(job, SLOT, { env, now: () => NOW })
    expect(answers).toEqual(["applied", "duplicate", "duplicate"])
    expect(await countOf("a")).toBe(1)
    const keys = await pool.query("SELECT key, committed_at FROM once_keys ORDER BY key")
    expect(keys.rows.map((row) => ({ key: row.key, committed_at: Number(row.committed_at) }))).toEqual([
      { key: "job:once.postgres/item-1", committed_at: NOW },
    ])
  })
})
