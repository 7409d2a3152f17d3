import type { Client } from "@libsql/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/app.ts"
import { consumers } from "../../src/consumers.ts"
import { openDatabase } from "../../src/infra/node/database.ts"
import { createRuntime, type Runtime } from "../../src/infra/node/runtime.ts"
import { listen } from "../../src/infra/node/server.ts"
import { Jobs } from "../../src/infra/portable.ts"
import { jobs } from "../../src/jobs.ts"
import { libsqlEngine, migratedDatabase } from "./engines.ts"

const MINUTE = 60_000
// 02:50 to 03:14 UTC: 25 slots, and 03:00 is the daily billing.close-expired-trials slot.
const FIRST = Date.UTC(2026, 10, 30, 2, 50)
const SLOTS = Array.from({ length: 25 }, (_, i) => FIRST + i * MINUTE)
const TOKEN = "replica-test-token"

/** The slots the recorder job ran, by the replica that ran them. */
const ranBy: Record<string, string[]> = {}

/** An exclusive job that records which replica ran which slot (its env says which). */
const recorder = Jobs.make({
  name: "replicas.record",
  cron: "* * * * *",
  exclusive: true,
  timeout: "10 seconds",
  run: async (slot, ctx) => {
    const replica = (ctx.env as unknown as { REPLICA: string }).REPLICA
    ranBy[replica]?.push(slot.toISOString())
  },
})

describe("two container replicas on one SQLite file", () => {
  let url: string
  const clients: Client[] = []
  const replicas: Runtime[] = []
  /** Each replica's injected clock. */
  const clocks: number[] = []

  beforeAll(async () => {
    const first = await migratedDatabase()
    url = first.url
    clients.push(first.client, await openDatabase(url))
    // Each replica has its own client (its own SQLite connections) and its own clock: the slot plus a few seconds.
    for (const [i, client] of clients.entries()) {
      const name = `replica-${i}`
      ranBy[name] = []
      clocks[i] = FIRST
      const vars = { ADMIN_TOKEN: TOKEN, REPLICA: name }
      replicas.push(createRuntime({ jobs: Jobs.registry([...jobs, recorder]), client, vars, now: () => clocks[i]! }))
    }
  })
  afterAll(() => {
    for (const client of clients) client.close()
  })

  it("runs every exclusive job exactly once per slot across both, through 25 slots", async () => {
    const db = replicas[0]!.env.DB
    await db
      .prepare("INSERT INTO usage_events (account, quantity, at) VALUES ('acme', 2, ?), ('acme', 3, ?)")
      .bind(FIRST + 30_000, FIRST + 10 * MINUTE)
      .run()
    await db.prepare("INSERT INTO trials (account, due_at) VALUES ('acme', ?)").bind(FIRST).run()

    const outcomes: Array<{ slot: number; job: string; status: string }> = []
    for (const slot of SLOTS) {
      // Each replica's clock a little past the slot, as two hosts' timers would be.
      for (const i of replicas.keys()) clocks[i] = slot + 1_000 + i * 700
      const beats = await Promise.all(replicas.map((replica) => replica.beat(slot)))
      for (const beat of beats) for (const { job, status } of beat) outcomes.push({ slot, job, status })
    }

    const exclusive = [...jobs, recorder].filter((job) => job.exclusive)
    for (const slot of SLOTS) {
      for (const job of exclusive.filter((job) => job.schedule.matches(slot))) {
        const ran = outcomes.filter((o) => o.slot === slot && o.job === job.name && o.status === "ran")
        expect(ran, `${job.name} at ${new Date(slot).toISOString()}`).toHaveLength(1)
      }
    }
    // The daily job had its one slot; the recorder ran 25 slots, split between the replicas.
    expect(outcomes.filter((o) => o.job === "billing.close-expired-trials" && o.status === "ran")).toHaveLength(1)
    const recorded = [...ranBy["replica-0"]!, ...ranBy["replica-1"]!].sort()
    expect(recorded).toEqual(SLOTS.map((slot) => new Date(slot).toISOString()))
    // The work itself happened once: the usage is counted once, the trial closed once.
    expect(await db.prepare("SELECT quantity FROM usage_totals WHERE account = 'acme'").first("quantity")).toBe(5)
    expect(await db.prepare("SELECT closed_at FROM trials WHERE account = 'acme'").first("closed_at")).toBe(
      Date.UTC(2026, 10, 30, 3, 0),
    )
  })

  it("answers admin's run-now with 200 on one replica and 409 on the other for the same slot", async () => {
    const app = createApp({ jobs, consumers })
    const servers = await Promise.all(
      replicas.map((replica) => listen(app, replica.env, replica.executionContext, { port: 0, hostname: "127.0.0.1" })),
    )
    try {
      // Both requests must name the same minute: not within the last 2 s of one (a bounded wait).
      while (Date.now() % MINUTE > MINUTE - 2_000) await new Promise((done) => setTimeout(done, 250))
      const runNow = (base: string) =>
        fetch(`${base}/admin/jobs/billing.roll-up-usage/run`, {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      const first = await runNow(servers[0]!.url)
      const second = await runNow(servers[1]!.url)
      expect(first.status).toBe(200)
      expect(await first.json()).toMatchObject({ job: "billing.roll-up-usage", status: "ran" })
      expect(second.status).toBe(409)
      expect(second.headers.get("content-type")).toBe("application/problem+json")
    } finally {
      await Promise.all(servers.map((server) => server.close(5_000)))
    }
  })
})

describe("four container replicas on a fresh SQLite file, two with clocks far ahead", () => {
  const DAY = 24 * 60 * MINUTE
  const names = ["correct-0", "correct-1", "a-day-ahead", "two-days-ahead"]
  /** Which replica ran which slot of the skew job. */
  const runs: Array<{ replica: string; slot: number }> = []
  const skewed = Jobs.make({
    name: "replicas.skew",
    cron: "* * * * *",
    exclusive: true,
    timeout: "10 seconds",
    run: async (slot, ctx) => {
      runs.push({ replica: (ctx.env as unknown as { REPLICA: string }).REPLICA, slot: slot.getTime() })
    },
  })
  const clients: Client[] = []
  const replicas: Runtime[] = []
  /** The database's clock, the claims' referee: each replica's clock shows only in the minute it fires. */
  let databaseNow = FIRST

  beforeAll(async () => {
    const first = await migratedDatabase()
    clients.push(first.client)
    for (let i = 1; i < names.length; i++) clients.push(await openDatabase(first.url))
    for (const [i, client] of clients.entries()) {
      const vars = { REPLICA: names[i] }
      replicas.push(createRuntime({ jobs: Jobs.registry([skewed]), client, vars, now: () => databaseNow + i * 200 }))
    }
  })
  afterAll(() => {
    for (const client of clients) client.close()
  })

  it("runs every real slot once, from the first, while one fires tomorrow's minutes and another jumps further, and after both are corrected", async () => {
    // 30 minutes with the third replica a day ahead and, from minute 10, the fourth two days ahead; then 10 corrected.
    const minutes = Array.from({ length: 40 }, (_, i) => FIRST + i * MINUTE)
    const correctedAt = FIRST + 30 * MINUTE
    const skew = (i: number, minute: number) =>
      minute >= correctedAt ? 0 : i === 2 ? DAY : i === 3 ? (minute >= FIRST + 10 * MINUTE ? 2 * DAY : DAY) : 0
    for (const [k, minute] of minutes.entries()) {
      databaseNow = minute + 300
      const fire = (i: number) => replicas[i]!.beat(minute + skew(i, minute))
      // The replicas ahead fire first (the very first claim of the job among them); every fifth minute all at once.
      if (k % 5 === 4) await Promise.all(replicas.map((_, i) => fire(i)))
      else for (const i of k % 2 === 0 ? [2, 3, 0, 1] : [3, 2, 1, 0]) await fire(i)
    }

    const count = new Map<number, number>()
    for (const { slot } of runs) count.set(slot, (count.get(slot) ?? 0) + 1)
    expect([...count.values()].filter((n) => n > 1)).toEqual([])
    // Every real minute ran once, the first ten included; no minute of tomorrow or after ran early.
    expect(runs.map(({ slot }) => slot).sort((a, b) => a - b)).toEqual(minutes)
    const whileAhead = runs.filter(({ slot }) => slot < correctedAt)
    expect(whileAhead.every(({ replica }) => replica.startsWith("correct"))).toBe(true)
    // Corrected, they take their share of the minutes.
    expect(runs.some(({ replica }) => !replica.startsWith("correct"))).toBe(true)
  })
})

describe("container replicas on the database's own clock", () => {
  it("refuses tomorrow's minute from a replica a day ahead, first claim included, and runs the minute due", async () => {
    const { client, url } = await migratedDatabase()
    const other = await openDatabase(url)
    const job = Jobs.make({
      name: "replicas.real-clock",
      cron: "* * * * *",
      exclusive: true,
      timeout: "1 second",
      run: () => {},
    })
    try {
      const [ahead, correct] = [client, other].map((c) => createRuntime({ jobs: Jobs.registry([job]), client: c }))
      const minute = Date.now() - (Date.now() % MINUTE)
      const day = 24 * 60 * MINUTE
      expect(await ahead!.beat(minute + day)).toEqual([
        expect.objectContaining({ status: "skipped", reason: "slot taken" }),
      ])
      expect(await correct!.beat(minute)).toEqual([expect.objectContaining({ status: "ran" })])
      expect(await ahead!.beat(minute + day + MINUTE)).toEqual([expect.objectContaining({ status: "skipped" })])
      const row = await client.execute({ sql: "SELECT last_slot FROM jobs_leases WHERE name = ?", args: [job.name] })
      expect(row.rows[0]?.last_slot).toBe(minute)
    } finally {
      client.close()
      other.close()
    }
  })
})

describe("three replicas' claims on one SQLite file, one a day ahead until real time passes its first minute ahead", () => {
  const DAY = 24 * 60 * MINUTE
  /** A 10-second job's lease (its timeout + 1 minute). */
  const LEASE = 10_000 + MINUTE
  const names = ["correct-0", "correct-1", "ahead"]
  const clients: Client[] = []

  beforeAll(async () => {
    const first = await migratedDatabase()
    clients.push(first.client, await openDatabase(first.url), await openDatabase(first.url))
    // No fsync per commit: what is tested is which claims win, not that they survive a power cut.
    for (const client of clients) await client.execute("PRAGMA synchronous = OFF")
  })
  afterAll(() => {
    for (const client of clients) client.close()
  })

  // Each replica claims (and, having won, releases) as Jobs.run does, through its own client: a day and
  // more of minutes stays fast without a run's log line and record.
  it("runs every real minute once, none early, through the minutes it fired a day before", async () => {
    const engines = clients.map((client) => libsqlEngine(client))
    const runs: Array<{ replica: string; slot: number }> = []
    // Real time runs a day and an hour, minute by minute; the third replica is a day ahead for all
    // but the last 30 minutes, so real time reaches the minutes it fired while it still is.
    const minutes = Array.from({ length: 24 * 60 + 60 }, (_, i) => FIRST + i * MINUTE)
    const aheadUntil = FIRST + DAY + 30 * MINUTE
    for (const [k, minute] of minutes.entries()) {
      for (const i of k % 2 === 0 ? [k % 3, (k + 1) % 3, (k + 2) % 3] : [(k + 2) % 3, (k + 1) % 3, k % 3]) {
        const slot = minute + (i === 2 && minute < aheadUntil ? DAY : 0)
        const holder = `${names[i]}-${slot}`
        // The database's clock a little past the real minute, as each claim meets it.
        const now = minute + 300 + i * 200
        if (await engines[i]!.claim({ name: "replicas.catch-up", slot, now, leaseMs: LEASE, holder })) {
          runs.push({ replica: names[i]!, slot })
          await engines[i]!.release("replicas.catch-up", holder)
        }
      }
    }

    const count = new Map<number, number>()
    for (const { slot } of runs) count.set(slot, (count.get(slot) ?? 0) + 1)
    expect([...count.entries()].filter(([, n]) => n > 1).map(([slot]) => new Date(slot).toISOString())).toEqual([])
    expect(minutes.filter((slot) => !count.has(slot))).toEqual([])
    expect(runs.filter(({ slot }) => slot >= FIRST + minutes.length * MINUTE)).toEqual([])
    expect(runs.filter(({ slot }) => slot < aheadUntil).every(({ replica }) => replica !== "ahead")).toBe(true)
  })
})
