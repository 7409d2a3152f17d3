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

describe("three container replicas on one SQLite file, one with a clock a day ahead", () => {
  const DAY = 24 * 60 * MINUTE
  const names = ["correct-0", "correct-1", "ahead"]
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
  const clocks: number[] = []

  beforeAll(async () => {
    const first = await migratedDatabase()
    clients.push(first.client, await openDatabase(first.url), await openDatabase(first.url))
    for (const [i, client] of clients.entries()) {
      clocks[i] = FIRST
      const vars = { REPLICA: names[i] }
      replicas.push(createRuntime({ jobs: Jobs.registry([skewed]), client, vars, now: () => clocks[i]! }))
    }
  })
  afterAll(() => {
    for (const client of clients) client.close()
  })

  it("runs no slot twice, and the correct replicas run every slot, while it claims tomorrow's and after it is corrected", async () => {
    // 30 slots with the third replica's clock a day ahead (it fires tomorrow's minute), then 10 with it corrected.
    const minutes = Array.from({ length: 40 }, (_, i) => FIRST + i * MINUTE)
    const aheadUntil = FIRST + 30 * MINUTE
    for (const [k, slot] of minutes.entries()) {
      const skew = (i: number) => (i === 2 && slot < aheadUntil ? DAY : 0)
      for (const i of replicas.keys()) clocks[i] = slot + skew(i) + 300 + i * 200
      const fire = (i: number) => replicas[i]!.beat(slot + skew(i))
      // The order the three fire in changes from minute to minute; every fifth minute they fire at once.
      if (k % 5 === 4) await Promise.all(replicas.map((_, i) => fire(i)))
      else
        for (const i of k % 2 === 0 ? [k % 3, (k + 1) % 3, (k + 2) % 3] : [(k + 2) % 3, (k + 1) % 3, k % 3])
          await fire(i)
    }

    const count = new Map<number, number>()
    for (const { slot } of runs) count.set(slot, (count.get(slot) ?? 0) + 1)
    expect([...count.values()].filter((n) => n > 1)).toEqual([])
    // Not one of today's slots is lost to tomorrow's last_slot (the bound for a clock more than 2 x lease ahead):
    // the correct replicas ran all 30 while the fast one ran tomorrow's, and all 40 ran once.
    const today = runs.filter(({ slot }) => slot < FIRST + DAY)
    expect(today.map(({ slot }) => slot).sort((a, b) => a - b)).toEqual(minutes)
    const whileAhead = today.filter(({ slot }) => slot < aheadUntil)
    expect(whileAhead.every(({ replica }) => replica !== "ahead")).toBe(true)
    expect(whileAhead).toHaveLength(30)
    // The fast replica ran its own (tomorrow's) minutes, each once; corrected, it takes its share of today's.
    expect(runs.filter(({ slot }) => slot >= FIRST + DAY).map(({ replica }) => replica)).toEqual(
      Array(30).fill("ahead"),
    )
    expect(today.some(({ replica }) => replica === "ahead")).toBe(true)
  })
})

describe("three replicas' claims on one SQLite file, catching up with one a day ahead", () => {
  const DAY = 24 * 60 * MINUTE
  /** A 10-second job's lease (its timeout + 1 minute), twice: how far ahead a last_slot must be to be reclaimable. */
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
  it("runs no slot twice when real time reaches the slots it ran early while it is still ahead, and loses none", async () => {
    const engines = clients.map((client) => libsqlEngine(client))
    const runs: Array<{ replica: string; slot: number }> = []
    // Real time runs a day and an hour, minute by minute; the third replica is a day ahead for all
    // but the last 30 minutes, so real time reaches its first far-ahead slot (J) while it still is.
    const minutes = Array.from({ length: 24 * 60 + 60 }, (_, i) => FIRST + i * MINUTE)
    const aheadUntil = FIRST + DAY + 30 * MINUTE
    const jump = FIRST + DAY
    for (const [k, minute] of minutes.entries()) {
      for (const i of k % 2 === 0 ? [k % 3, (k + 1) % 3, (k + 2) % 3] : [(k + 2) % 3, (k + 1) % 3, k % 3]) {
        const slot = minute + (i === 2 && minute < aheadUntil ? DAY : 0)
        const holder = `${names[i]}-${slot}`
        // Each replica's clock a little past its slot, as hosts' timers would be.
        if (
          await engines[i]!.claim({
            name: "replicas.catch-up",
            slot,
            now: slot + 300 + i * 200,
            leaseMs: LEASE,
            holder,
          })
        ) {
          runs.push({ replica: names[i]!, slot })
          await engines[i]!.release("replicas.catch-up", holder)
        }
      }
    }

    const count = new Map<number, number>()
    for (const { slot } of runs) count.set(slot, (count.get(slot) ?? 0) + 1)
    expect([...count.entries()].filter(([, n]) => n > 1).map(([slot]) => new Date(slot).toISOString())).toEqual([])
    // J and every slot after it were run once, early, by the replica ahead; the correct ones ran the rest.
    expect(runs.filter(({ slot }) => slot >= jump).every(({ replica }) => replica === "ahead")).toBe(true)
    expect(runs.filter(({ slot }) => slot < jump).every(({ replica }) => replica !== "ahead")).toBe(true)
    // Lost: a real-time slot no replica ran. The bound: only slots below J whose claimant's clock is
    // within 2 x lease of the newest slot claimed ahead; here that newest slot stays a day past J.
    const newestAhead = Math.max(...runs.map(({ slot }) => slot))
    const lost = minutes.filter((slot) => !count.has(slot))
    expect(lost.filter((slot) => !(slot < jump && slot + 700 >= newestAhead - 2 * LEASE))).toEqual([])
    expect(lost).toEqual([])
  })
})
