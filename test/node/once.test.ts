import type { Client } from "@libsql/client"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { d1OverLibsql } from "../../src/infra/node/d1.ts"
import { d1OverPostgres } from "../../src/infra/node/d1-postgres.ts"
import { applyPostgresMigrations, openPostgres } from "../../src/infra/node/postgres.ts"
import { commitOnce, ONCE_RETENTION_MS, ONCE_SWEEP_BATCH } from "../../src/infra/once.ts"
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

describe("ctx.once's sweep under concurrency, on the real PostgreSQL server", () => {
  const REPLICAS = 4
  /** Each replica's pool, the container's default size: 40 transactions in the server at once, the rest queued. */
  const POOL_MAX = 10
  const KEYS = 150
  /** Keys committed twice, at once: 200 commits in all. */
  const TWICE = 50
  const EXPIRED = 200
  const pools: pg.Pool[] = []
  afterAll(() => Promise.all(pools.map((pool) => pool.end())))

  /** Four replicas' pools over a fresh migrated database, holding EXPIRED keys past the window and an effects table. */
  async function replicas() {
    const url = await freshPostgresDatabase()
    // The container's pool, with room for the first 40 commits to wait while they are held on purpose, and the rest behind them.
    const opened = await Promise.all(
      Array.from({ length: REPLICAS }, () =>
        openPostgres(url, { poolMax: POOL_MAX, statementTimeoutMs: 60_000, connectTimeoutMs: 60_000 }),
      ),
    )
    pools.push(...opened)
    const [first] = opened as [pg.Pool]
    await applyPostgresMigrations(first, "migrations/postgres")
    await first.query("CREATE TABLE effects (key TEXT PRIMARY KEY, n BIGINT NOT NULL)")
    // Expired keys sharing four commit times, so that every sweep picks the same oldest rows, ties included.
    await first.query(
      "INSERT INTO once_keys (key, committed_at) SELECT 'job:old/' || i, $1::bigint - (i % 4) FROM generate_series(1, $2) AS i",
      [NOW - ONCE_RETENTION_MS - 1, EXPIRED],
    )
    return { url, opened }
  }

  /** A session of its own, outside the replicas' pools (which the burst fills). */
  async function session(url: string) {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    return client
  }

  /** Sessions of this database waiting for a lock (a row, or another transaction's key). */
  const lockWaits = async (client: pg.Client) =>
    Number(
      (
        await client.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
      ).rows[0]?.n,
    )

  it.each([
    ["rolls back: the 40 sweeps then race to delete the same rows", "ROLLBACK"],
    ["deletes them and commits: the 40 sweeps then find their rows gone", "DELETE"],
  ])(
    "200 commits, the first 40 held in their sweep until a session locking the expired keys %s",
    async (_, release) => {
      const { url, opened } = await replicas()
      const [first] = opened as [pg.Pool]
      const blocker = await session(url)
      const monitor = await session(url)
      await blocker.query("BEGIN")
      await blocker.query("SELECT key FROM once_keys WHERE committed_at < $1 FOR UPDATE", [NOW])
      const bindings = opened.map((pool) => d1OverPostgres(pool))
      const commit = (i: number) => {
        const DB = bindings[i % REPLICAS] as D1Database
        const key = `job:burst/item-${i % KEYS}`
        const effect = DB.prepare(
          "INSERT INTO effects (key, n) VALUES (?1, 1) ON CONFLICT (key) DO UPDATE SET n = effects.n + 1",
        ).bind(key)
        return commitOnce(DB, key, [effect], NOW).then(
          (answer) => ({ key, status: answer.status as string }),
          (error: Error) => ({ key, status: `threw: ${error.message}` }),
        )
      }
      const burst = Promise.all(Array.from({ length: KEYS + TWICE }, (_, i) => commit(i)))
      // Every pooled connection in a lock wait: each sweep behind the blocker, or a repeated key behind its first commit.
      const deadline = Date.now() + 30_000
      while ((await lockWaits(monitor)) < REPLICAS * POOL_MAX && Date.now() < deadline) await sleep(10)
      expect(await lockWaits(monitor)).toBe(REPLICAS * POOL_MAX)
      await monitor.end()
      if (release === "DELETE") await blocker.query("DELETE FROM once_keys WHERE committed_at < $1", [NOW])
      await blocker.query(release === "DELETE" ? "COMMIT" : "ROLLBACK")
      await blocker.end()
      const answers = await burst

      expect(answers.filter((answer) => answer.status.startsWith("threw"))).toEqual([])
      // Per key: exactly one commit applied, every other one answered duplicate.
      const tally = new Map<string, { applied: number; duplicate: number }>()
      for (const { key, status } of answers) {
        const counts = tally.get(key) ?? { applied: 0, duplicate: 0 }
        counts[status as "applied" | "duplicate"]++
        tally.set(key, counts)
      }
      expect(tally.size).toBe(KEYS)
      for (const [key, { applied, duplicate }] of tally)
        expect({ key, applied, duplicate }).toEqual({ key, applied: 1, duplicate: itemOf(key) < TWICE ? 1 : 0 })
      const effects = await first.query<{ key: string; n: number }>("SELECT key, n FROM effects WHERE n != 1")
      expect(effects.rows).toEqual([])
      expect((await first.query("SELECT count(*) AS n FROM effects")).rows).toEqual([{ n: KEYS }])
      const kept = await first.query<{ fresh: number; expired: number }>(
        "SELECT count(*) FILTER (WHERE committed_at = $1) AS fresh, count(*) FILTER (WHERE committed_at < $1) AS expired FROM once_keys",
        [NOW],
      )
      // Every fresh key stayed; the sweeps took expired ones (how many depends on how they overlapped: at least one sweep's 16).
      expect(kept.rows[0]?.fresh).toBe(KEYS)
      expect(kept.rows[0]?.expired).toBeLessThanOrEqual(EXPIRED - ONCE_SWEEP_BATCH)
    },
  )
})

/** The item number in a burst key `job:burst/item-<n>`. */
const itemOf = (key: string) => Number(key.slice(key.lastIndexOf("-") + 1))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
