import { env } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { mostDue, PLANS } from "../../src/infra/jobs/contract/capacity.ts"
import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { type Job, JobCapacityError, Jobs } from "../../src/infra/jobs/index.ts"
import { limitedD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"

const logs = captureLogs()
const MINUTE = 60_000
// Far from other tests' slots; the test's clock stands in for the database's (a slot of 2098 is not yet due by the real one).
const S0 = Date.UTC(2098, 2, 1, 10, 0)
const slot = (k: number) => S0 + k * MINUTE
const onTime = (k: number) => ({ now: () => slot(k) + 1_000 })

let lists = 0
/** `n` exclusive every-minute jobs; each makes `queries` D1 queries of its own through ctx.env.DB. */
function jobsOf(n: number, queries = 0): Job[] {
  const prefix = `capacity.${++lists}`
  return Array.from({ length: n }, (_, i) =>
    Jobs.make({
      name: `${prefix}.job-${String(i).padStart(5, "0")}`,
      cron: "* * * * *",
      exclusive: true,
      timeout: "30 seconds",
      run: async (_slot, ctx) => {
        for (let q = 0; q < queries; q++) await (ctx.env as Env).DB.prepare("select 1").all()
      },
    }),
  )
}

/** The job.run lines at `k` (one a job?), and the lease rows that recorded a run of `k` and still have a holder. */
async function accounted(list: readonly Job[], k: number) {
  const lines = logs.of("job.run").filter((line) => line.slot === new Date(slot(k)).toISOString())
  const byJob = new Map<string, number>()
  for (const line of lines) byJob.set(line.job as string, (byJob.get(line.job as string) ?? 0) + 1)
  const prefix = list[0]?.name.replace(/job-\d+$/, "") ?? ""
  const { results } = await env.DB.prepare(
    "select count(*) as recorded, sum(holder is not null) as held from jobs_leases where name like ? and last_run_slot = ?",
  )
    .bind(`${prefix}%`, slot(k))
    .all<{ recorded: number; held: number | null }>()
  return { lines: lines.length, once: list.every((job) => byJob.get(job.name) === 1), ...results[0] }
}

describe("a heartbeat's capacity, declared with the registry", () => {
  it("reads the busiest minute from the crons, and warns at load, or refuses, past what a heartbeat runs", () => {
    const every = jobsOf(60)
    const nightly = Array.from({ length: 50 }, (_, i) =>
      Jobs.make({
        name: `capacity.nightly-${i}`,
        cron: "0 3 * * *",
        exclusive: true,
        timeout: "1 minute",
        run: () => {},
      }),
    )
    expect(mostDue([...every, ...nightly])).toEqual({ jobs: 110, at: "03:00" })
    expect(mostDue(every)).toEqual({ jobs: 60, at: "00:00" })

    Jobs.registry([...every, ...nightly])
    expect(logs.of("jobs.capacity")).toEqual([
      expect.objectContaining({ level: "warn", mostDue: 110, at: "03:00", plan: "free", jobsPerHeartbeat: 100 }),
    ])
    expect(() => Jobs.registry([...every, ...nightly], { overCapacity: "refuse" })).toThrow(JobCapacityError)
    expect(() => Jobs.registry([...every, ...nightly], { plan: "paid", overCapacity: "refuse" })).not.toThrow()
    expect(() => Jobs.registry(every, { overCapacity: "refuse" })).not.toThrow()
    // An overflow queue takes the excess: nothing to warn of.
    logs.lines.length = 0
    Jobs.registry([...every, ...nightly], { overflowQueue: "JOBS" })
    expect(logs.of("jobs.capacity")).toEqual([])
  })

  it("refuses a plan, an overflow queue or an overCapacity it cannot read, naming the field", () => {
    const list = jobsOf(1)
    expect(() => Jobs.registry(list, { plan: "pro" as never })).toThrow(/plan must be "free", "paid" or limits/)
    expect(() => Jobs.registry(list, { plan: { ...PLANS.free, d1Queries: 0 } })).toThrow(/plan\.d1Queries must be/)
    expect(() => Jobs.registry(list, { overflowQueue: "" })).toThrow(/overflowQueue must be/)
    expect(() => Jobs.registry(list, { overCapacity: "ignore" as never })).toThrow(/overCapacity must be/)
  })

  it("runs 100 due jobs on the free plan and, of 101, leaves one out with one error line, never silently", async () => {
    for (const [n, k] of [
      [100, 0],
      [101, 1],
    ] as const) {
      const list = Jobs.registry(jobsOf(n))
      const { db, counter } = limitedD1(env.DB, PLANS.free.d1Queries)
      const results = await beat(list, slot(k), { ...env, DB: db }, onTime(k))
      expect(results.filter((r) => r.status === "ran")).toHaveLength(100)
      const left = results.filter((r) => r.status !== "ran")
      expect(left).toEqual(n === 100 ? [] : [expect.objectContaining({ status: "skipped", reason: "over capacity" })])
      expect(await accounted(list, k)).toMatchObject({ lines: n, once: true, recorded: 100, held: 0 })
      // The pause lookup, the claim and one batch of releases.
      expect(counter).toEqual({ queries: 3, refused: 0 })
    }
    expect(logs.of("job.run").filter((line) => line.reason === "over capacity")).toEqual([
      expect.objectContaining({ level: "error", outcome: "skipped", plan: "free", jobsPerHeartbeat: 100 }),
    ])
  })

  it("hands the excess to the overflow queue instead, when one is declared", async () => {
    const sent: unknown[] = []
    const queue = { sendBatch: async (batch: Array<{ body: unknown }>) => void sent.push(...batch.map((m) => m.body)) }
    const small = { ...PLANS.free, cpuMs: 1 }
    const list = Jobs.registry(jobsOf(12), { plan: small, overflowQueue: "OVERFLOW" })
    const results = await beat(list, slot(2), { ...env, OVERFLOW: queue } as never, onTime(2))
    expect(results.map((r) => r.status)).toEqual(Array(10).fill("ran"))
    expect(sent).toHaveLength(2)
    expect(sent).toEqual(expect.arrayContaining([expect.objectContaining({ slot: new Date(slot(2)).toISOString() })]))
    // A missing binding: the excess says so, a line each.
    const again = await beat(list, slot(3), env, onTime(3))
    expect(again.filter((r) => r.reason === "over capacity")).toHaveLength(2)
  })

  for (const [plan, sides] of [
    ["free", [40, 60]],
    ["paid", [990, 1_010]],
  ] as const) {
    const limit = PLANS[plan].d1Queries
    it(`stays within the ${plan} plan's ${limit} D1 queries with jobs that query D1 themselves, at N = ${sides.join(" and ")}: every slot ran, failed or says why`, async () => {
      for (const [i, n] of sides.entries()) {
        const k = 10 + i
        const list = Jobs.registry(jobsOf(n, 1), { plan })
        const { db, counter } = limitedD1(env.DB, limit)
        const results = await beat(list, slot(k), { ...env, DB: db }, onTime(k))
        // D1 never refused a query: slotwise kept what the claim and the releases need, and refused the jobs' rest itself.
        expect(counter.refused).toBe(0)
        expect(counter.queries).toBeLessThanOrEqual(limit)
        expect(results).toHaveLength(n)
        const ran = results.filter((r) => r.status === "ran").length
        const failed = results.filter((r) => r.status === "failed").length
        expect(ran + failed).toBe(n)
        expect(await accounted(list, k)).toMatchObject({ lines: n, once: true, recorded: n, held: 0 })
        if (n > limit) expect(failed).toBeGreaterThan(0)
      }
      const refusedByBudget = logs.of("job.run").filter((line) => String(line.error).startsWith("D1QueryBudgetError"))
      expect(refusedByBudget.length).toBeGreaterThan(0)
    })
  }

  it("claims and releases 1,000 due exclusive jobs ending together in at most 3 D1 queries", async () => {
    const list = Jobs.registry(jobsOf(1_000), { plan: "paid" })
    const { db, counter } = limitedD1(env.DB, PLANS.paid.d1Queries)
    const results = await beat(list, slot(20), { ...env, DB: db }, onTime(20))
    expect(results.filter((r) => r.status === "ran")).toHaveLength(1_000)
    expect(counter.queries).toBeLessThanOrEqual(3)
    expect(await accounted(list, 20)).toMatchObject({ recorded: 1_000, held: 0 })
  })

  it("runs 10,000 due exclusive jobs in one heartbeat within the paid plan's 1,000 queries, and the Worker's 10,000 timers", async () => {
    const list = Jobs.registry(jobsOf(10_000), { plan: "paid" })
    const { db, counter } = limitedD1(env.DB, PLANS.paid.d1Queries)
    const results = await beat(list, slot(30), { ...env, DB: db }, onTime(30))
    // Each run's claim wait and timeout share their timers: 10,000 of their own would pass the Worker's limit.
    expect(results.filter((r) => r.status === "ran")).toHaveLength(10_000)
    expect(counter.refused).toBe(0)
    expect(counter.queries).toBeLessThanOrEqual(PLANS.paid.d1Queries)
    expect(await accounted(list, 30)).toMatchObject({ recorded: 10_000, held: 0 })
  }, 120_000)
})
