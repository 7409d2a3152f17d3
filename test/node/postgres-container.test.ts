import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { eq } from "drizzle-orm"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/app.ts"
import { consumers } from "../../src/consumers.ts"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import type { SlotwiseEnv } from "../../src/infra/env.ts"
import { RUN_HISTORY_LENGTH, runsOf } from "../../src/infra/jobs/contract/record.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { type RunningContainer, startContainer } from "../../src/infra/node/container.ts"
import { d1OverPostgres } from "../../src/infra/node/postgres/postgres-binding.ts"
import { applyPostgresMigrations } from "../../src/infra/node/postgres/postgres-migrations.ts"
import { jobs } from "../../src/jobs.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

const MINUTE = 60_000
const T0 = Date.UTC(2026, 10, 30, 3, 0)
const TOKEN = "postgres-test-token"
const MIGRATIONS = "migrations/postgres"

describe("the container on PostgreSQL: claim, release and run history through its binding", () => {
  let pool: pg.Pool
  beforeAll(async () => {
    pool = await containerPool(await freshPostgresDatabase())
    await applyPostgresMigrations(pool, MIGRATIONS)
  })
  afterAll(() => pool.end())

  it("records every run in the release and keeps the newest 20, oldest first, with epoch-ms numbers", async () => {
    const env = { DB: d1OverPostgres(pool) } as unknown as { DB: D1Database } & SlotwiseEnv
    let n = 0
    const job = Jobs.make({
      name: "postgres.history",
      cron: "* * * * *",
      exclusive: true,
      timeout: "1 second",
      run: async () => {
        // A message with the history's own separators inside: they must not cut an entry in two.
        if (++n % 3 === 0) throw new Error(`boom },{"slot": {" ${n}`)
      },
    })
    for (let i = 0; i < 25; i++) {
      const slot = T0 + i * MINUTE
      const result = await Jobs.run(job, new Date(slot), { env, runId: `run-${i}`, now: () => slot + 1_000 })
      expect(result.status).toBe(i % 3 === 2 ? "failed" : "ran")
    }
    const [lease] = await database(env.DB).select().from(jobsLeases).where(eq(jobsLeases.name, job.name))
    const runs = runsOf(lease)
    expect(runs).toHaveLength(RUN_HISTORY_LENGTH)
    expect(runs.map((run) => run.runId)).toEqual(Array.from({ length: 20 }, (_, i) => `run-${24 - i}`))
    expect(runs[1]).toMatchObject({ slot: T0 + 23 * MINUTE, outcome: "failed", error: 'Error: boom },{"slot": {" 24' })
    expect(lease).toMatchObject({ lastSlot: T0 + 24 * MINUTE, lastRunId: "run-24", leaseUntil: null, holder: null })
    expect(typeof lease?.lastFinishedAt).toBe("number")
  })

  it("runs the example app's jobs on their PostgreSQL tables: usage rolled up once, a trial closed", async () => {
    const env = { DB: d1OverPostgres(pool) } as unknown as { DB: D1Database } & SlotwiseEnv
    await env.DB.prepare("INSERT INTO usage_events (account, quantity, at) VALUES ('acme', 2, ?), ('acme', 3, ?)")
      .bind(T0 - 30_000, T0 - 10_000)
      .run()
    const trial = await env.DB.prepare("INSERT INTO trials (account, due_at) VALUES ('acme', ?) RETURNING id")
      .bind(T0 - MINUTE)
      .first("id")
    expect(typeof trial).toBe("number")
    for (const job of jobs.filter((job) => job.schedule.matches(T0))) {
      expect((await Jobs.run(job, new Date(T0), { env, now: () => T0 + 1_000 })).status).toBe("ran")
    }
    expect(
      await env.DB.prepare("SELECT quantity, through_slot FROM usage_totals WHERE account = 'acme'").first(),
    ).toEqual({ quantity: 5, through_slot: T0 })
    expect(await env.DB.prepare("SELECT closed_at FROM trials WHERE id = ?").bind(trial).first("closed_at")).toBe(T0)
  })
})

describe("PostgreSQL migrations under the advisory lock", () => {
  it("applies each file once when two replicas apply them at the same time", async () => {
    const url = await freshPostgresDatabase()
    const pools = await Promise.all([containerPool(url), containerPool(url)])
    try {
      const applied = await Promise.all(pools.map((pool) => applyPostgresMigrations(pool, MIGRATIONS)))
      const recorded = await pools[0]!.query<{ name: string }>("SELECT name FROM d1_migrations ORDER BY name")
      expect(recorded.rows.length).toBeGreaterThan(0)
      expect(applied.flat().sort()).toEqual(recorded.rows.map((row) => row.name))
      expect(applied.some((names) => names.length === 0)).toBe(true)
      expect(await applyPostgresMigrations(pools[1]!, MIGRATIONS)).toEqual([])
    } finally {
      await Promise.all(pools.map((pool) => pool.end()))
    }
  })

  it("starts on PostgreSQL without a migrations folder only to say the one command that copies the twins", async () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), "slotwise-pg-first-start-")), "migrations", "postgres")
    const started = startContainer({
      app: { fetch: () => new Response("ok") },
      jobs: [],
      databaseUrl: await freshPostgresDatabase(),
      migrations: missing,
      port: 0,
      handleSignals: false,
    })
    await expect(started).rejects.toThrow(
      `does not exist: copy slotwise's migrations into it with \`npx slotwise-migrations --postgres ${missing}\``,
    )
  })

  it("leaves nothing applied when a file fails", async () => {
    const url = await freshPostgresDatabase()
    const pool = await containerPool(url)
    try {
      const folder = mkdtempSync(path.join(tmpdir(), "slotwise-pg-migrations-"))
      writeFileSync(path.join(folder, "0001_ok.sql"), "CREATE TABLE ok (id BIGINT);")
      writeFileSync(path.join(folder, "0002_bad.sql"), "CREATE TABLE broken (;")
      await expect(applyPostgresMigrations(pool, folder)).rejects.toThrow(/migration 0002_bad.sql failed/)
      const tables = await pool.query("SELECT to_regclass('ok') AS ok, to_regclass('d1_migrations') AS recorded")
      expect(tables.rows[0]).toEqual({ ok: null, recorded: null })
    } finally {
      await pool.end()
    }
  })
})

describe("a started container on PostgreSQL answers admin over HTTP", () => {
  let container: RunningContainer
  const probe = Jobs.make({
    name: "postgres.probe",
    cron: "* * * * *",
    exclusive: true,
    timeout: "5 seconds",
    run: async () => {},
  })
  const containerJobs = Jobs.registry([...jobs, probe])
  const call = (method: string, route: string) =>
    fetch(`${container.url}/admin${route}`, { method, headers: { authorization: `Bearer ${TOKEN}` } })

  beforeAll(async () => {
    container = await startContainer({
      app: createApp({ jobs: containerJobs, consumers }),
      jobs: containerJobs,
      databaseUrl: await freshPostgresDatabase(),
      port: 0,
      vars: { ADMIN_TOKEN: TOKEN },
      handleSignals: false,
    })
  })
  afterAll(() => container?.stop())

  it("runs a job now, then lists it with its lease and last run, its leases, and health", async () => {
    const ran = await call("POST", "/jobs/postgres.probe/run")
    // The start-up beat may already have run this minute's slot: then run-now is refused with 409.
    expect([200, 409]).toContain(ran.status)
    await container.runtime.drain(10_000)

    const list = (await (await call("GET", "/jobs")).json()) as { jobs: Array<Record<string, unknown>> }
    const listed = list.jobs.find((job) => job.name === "postgres.probe")
    expect(listed).toMatchObject({ name: "postgres.probe", exclusive: true })
    expect(JSON.stringify(listed)).toMatch(/"outcome":"ran"/)

    const leases = (await (await call("GET", "/leases")).json()) as { leases: Array<Record<string, unknown>> }
    const lease = leases.leases.find((row) => row.name === "postgres.probe")
    expect(lease).toBeDefined()
    expect(typeof lease?.lastSlot === "number" || typeof lease?.lastSlot === "string").toBe(true)

    const health = await call("GET", "/health")
    expect(health.status).toBe(200)
    const view = (await health.json()) as { heartbeat: { status: string; lastFiredAt: number | null }; ok: boolean }
    expect(view.heartbeat.status).toBe("alive")
    expect(typeof view.heartbeat.lastFiredAt).toBe("number")
    expect(view.ok).toBe(true)
  })
})
