import { env } from "cloudflare:workers"
import { drizzle } from "drizzle-orm/d1"
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core"
import { beforeAll, describe, expect, it } from "vitest"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { commitOnce, ONCE_RETENTION_MS, ONCE_SWEEP_BATCH } from "../../src/infra/once.ts"
import { captureLogs } from "../support/logs.ts"

captureLogs()
const NOW = Date.UTC(2026, 11, 1, 12, 0)
const SLOT = new Date(NOW)

const counts = sqliteTable("once_counts", { item: text("item").primaryKey(), n: integer("n").notNull() })

beforeAll(async () => {
  await env.DB.exec("CREATE TABLE IF NOT EXISTS once_counts (item TEXT PRIMARY KEY, n INTEGER NOT NULL)")
})

/** An effect that is wrong when applied twice: it counts. */
const bump = (item: string) =>
  env.DB.prepare("INSERT INTO once_counts (item, n) VALUES (?1, 1) ON CONFLICT (item) DO UPDATE SET n = n + 1").bind(
    item,
  )
/** An effect D1 refuses (NOT NULL), after the key's insert has gone through. */
const refused = (item: string) => env.DB.prepare("INSERT INTO once_counts (item, n) VALUES (?1, NULL)").bind(item)
const countOf = async (item: string) =>
  (await env.DB.prepare("SELECT n FROM once_counts WHERE item = ?").bind(item).first<number>("n")) ?? 0
const keyRow = (key: string) =>
  env.DB.prepare("SELECT key, committed_at FROM once_keys WHERE key = ?").bind(key).first<Record<string, unknown>>()

describe("commitOnce on D1", () => {
  it("commits the key with its effects once; the same key again writes nothing and answers duplicate", async () => {
    const first = await commitOnce(env.DB, "c:1", [bump("c1-a"), bump("c1-b")], NOW)
    expect(first.status).toBe("applied")
    expect(first.status === "applied" && first.results.map((r) => r.meta.changes)).toEqual([1, 1])
    expect(await commitOnce(env.DB, "c:1", [bump("c1-a"), bump("c1-c")], NOW + 1)).toEqual({ status: "duplicate" })
    expect([await countOf("c1-a"), await countOf("c1-b"), await countOf("c1-c")]).toEqual([1, 1, 0])
    expect(await keyRow("c:1")).toEqual({ key: "c:1", committed_at: NOW })
  })

  it("relies on workerd's D1 rolling a whole batch back when a later statement fails", async () => {
    await commitOnce(env.DB, "c:2", [bump("c2-a")], NOW)
    const taken = env.DB.prepare("INSERT INTO once_keys (key, committed_at) VALUES (?, ?)").bind("c:2", NOW)
    await expect(env.DB.batch([bump("c2-before"), taken])).rejects.toThrow(/UNIQUE/)
    expect(await countOf("c2-before")).toBe(0)
  })

  it("throws any other D1 failure as D1 gave it, with nothing written, and the key still free", async () => {
    await expect(commitOnce(env.DB, "c:3", [bump("c3-a"), refused("c3-b")], NOW)).rejects.toThrow(/NOT NULL/)
    expect(await countOf("c3-a")).toBe(0)
    expect(await keyRow("c:3")).toBeNull()
    // The key was not spent: the next delivery of it applies.
    expect(await commitOnce(env.DB, "c:3", [bump("c3-a")], NOW)).toMatchObject({ status: "applied" })
    expect(await countOf("c3-a")).toBe(1)
  })

  it("takes drizzle queries beside D1 statements", async () => {
    const db = drizzle(env.DB)
    const answer = await commitOnce(
      env.DB,
      "c:4",
      [db.insert(counts).values({ item: "c4-a", n: 5 }), bump("c4-b")],
      NOW,
    )
    expect(answer.status).toBe("applied")
    expect([await countOf("c4-a"), await countOf("c4-b")]).toEqual([5, 1])
  })

  it("refuses bad statements naming the field, before anything is written", async () => {
    await expect(commitOnce(env.DB, "c:5", [], NOW)).rejects.toThrow(/statements must be a non-empty array/)
    await expect(commitOnce(env.DB, "c:5", "INSERT" as never, NOW)).rejects.toThrow(/statements must be/)
    await expect(commitOnce(env.DB, "c:5", [bump("c5-a"), {} as never], NOW)).rejects.toThrow(
      /statements\[1\] is neither a D1 prepared statement nor a drizzle query/,
    )
    expect(await countOf("c5-a")).toBe(0)
    expect(await keyRow("c:5")).toBeNull()
  })
})

describe("the key table's retention", () => {
  it("deletes at most ONCE_SWEEP_BATCH keys past the window per commit, oldest first, none inside it", async () => {
    const old = Array.from({ length: 40 }, (_, i) => ({ key: `sweep:old-${i}`, at: 1_000 + i }))
    const kept = NOW - ONCE_RETENTION_MS + 1
    await env.DB.batch([
      ...old.map(({ key, at }) =>
        env.DB.prepare("INSERT INTO once_keys (key, committed_at) VALUES (?, ?)").bind(key, at),
      ),
      env.DB.prepare("INSERT INTO once_keys (key, committed_at) VALUES (?, ?)").bind("sweep:inside", kept),
    ])
    const left = async () =>
      (
        await env.DB.prepare("SELECT key FROM once_keys WHERE key LIKE 'sweep:%' ORDER BY committed_at").all<{
          key: string
        }>()
      ).results.map((row) => row.key)

    await commitOnce(env.DB, "sweep:commit-1", [bump("sweep-a")], NOW)
    expect(await left()).toEqual([...old.slice(ONCE_SWEEP_BATCH).map((o) => o.key), "sweep:inside", "sweep:commit-1"])
    await commitOnce(env.DB, "sweep:commit-2", [bump("sweep-a")], NOW)
    await commitOnce(env.DB, "sweep:commit-3", [bump("sweep-a")], NOW)
    expect(await left()).toEqual(["sweep:inside", "sweep:commit-1", "sweep:commit-2", "sweep:commit-3"])
  })

  it("finds the expired keys through the committed_at index, never a scan", async () => {
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT key FROM once_keys WHERE committed_at < ?1 ORDER BY committed_at LIMIT 16",
    )
      .bind(NOW)
      .all<{ detail: string }>()
    const details = plan.results.map((row) => row.detail)
    expect(details).toEqual([expect.stringMatching(/^SEARCH once_keys USING (COVERING )?INDEX once_keys_committed_at/)])
  })
})

describe("ctx.once in a job", () => {
  const counting = (name: string, item: string, answers: string[]) =>
    Jobs.make({
      name,
      cron: "* * * * *",
      exclusive: false,
      timeout: 1_000,
      run: async (_slot, ctx) => {
        answers.push((await ctx.once("item-1", [bump(item)])).status)
      },
    })

  it("commits an item once across overlapping runs of the job, keyed by the job's name", async () => {
    const answers: string[] = []
    const job = counting("once.first", "job-a", answers)
    const runs = await Promise.all([1, 2, 3].map((n) => Jobs.run(job, SLOT, { env, runId: `r${n}`, now: () => NOW })))
    expect(runs.map((r) => r.status)).toEqual(["ran", "ran", "ran"])
    expect(answers.sort()).toEqual(["applied", "duplicate", "duplicate"])
    expect(await countOf("job-a")).toBe(1)
    expect(await keyRow("job:once.first/item-1")).toEqual({ key: "job:once.first/item-1", committed_at: NOW })

    // Another job's item of the same key is its own.
    const other: string[] = []
    await Jobs.run(counting("once.second", "job-b", other), SLOT, { env, now: () => NOW })
    expect(other).toEqual(["applied"])
    expect(await countOf("job-b")).toBe(1)
  })

  it("fails the run on a D1 failure with nothing written, and on an itemKey that is not a key, naming it", async () => {
    const failing = Jobs.make({
      name: "once.failing",
      cron: "* * * * *",
      exclusive: false,
      timeout: 1_000,
      run: (_slot, ctx) => ctx.once("item-1", [bump("job-c"), refused("job-d")]),
    })
    expect(await Jobs.run(failing, SLOT, { env, now: () => NOW })).toMatchObject({ status: "failed" })
    expect(await countOf("job-c")).toBe(0)
    expect(await keyRow("job:once.failing/item-1")).toBeNull()

    let thrown: unknown
    const badKey = Jobs.make({
      name: "once.bad-key",
      cron: "* * * * *",
      exclusive: false,
      timeout: 1_000,
      run: (_slot, ctx) =>
        ctx.once("", [bump("job-e")]).catch((error) => {
          thrown = error
        }),
    })
    await Jobs.run(badKey, SLOT, { env, now: () => NOW })
    expect(String(thrown)).toMatch(/itemKey must be a string of 1 to 512 characters/)
    expect(await countOf("job-e")).toBe(0)
  })
})
