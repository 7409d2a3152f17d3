import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { Schedules } from "../../src/infra/index.ts"
import { PLANS } from "../../src/infra/jobs/contract/capacity.ts"
import { capacityOf, PlanDeclarationError } from "../../src/infra/jobs/contract/registry.ts"
import { HEARTBEAT_CRON } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { limitedD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"

const logs = captureLogs()
const MINUTE = 60_000
// Far from other tests' slots; the slots of 2097 are not yet due by the database's clock, so runs carry a test clock.
const S0 = Date.UTC(2097, 4, 1, 9, 0)
const slot = (k: number) => S0 + k * MINUTE

let made = 0
/** An exclusive every-minute job that makes `queries` D1 queries of its own: more than the free plan leaves the jobs. */
const querying = (queries: number): Job =>
  Jobs.make({
    name: `declared.job-${++made}`,
    cron: "* * * * *",
    exclusive: true,
    timeout: "30 seconds",
    run: async (_slot, ctx) => {
      for (let q = 0; q < queries; q++) await (ctx.env as Env).DB.prepare("select 1").all()
    },
  })

async function fire(scheduled: ReturnType<typeof Jobs.heartbeat>, scheduledTime: number, fireEnv: Cloudflare.Env) {
  const ctx = createExecutionContext()
  await scheduled({ scheduledTime, cron: HEARTBEAT_CRON, noRetry: () => {} }, fireEnv, ctx)
  await waitOnExecutionContext(ctx)
}

const runLines = (k: number) => logs.of("job.run").filter((line) => line.slot === new Date(slot(k)).toISOString())

describe("a plan declared once reaches every heartbeat and queue batch", () => {
  it("the README's setup: declared with the slices' list, re-registered with Schedules.watchdog, every heartbeat runs on paid", async () => {
    // README.md, src/jobs.ts and src/index.ts, word for word but the job.
    const heavy = querying(60)
    const jobs = Jobs.registry([heavy], { plan: "paid" })
    const workerJobs = Jobs.registry([...jobs, Schedules.watchdog])
    expect(capacityOf(workerJobs)).toMatchObject({ plan: "paid", limits: PLANS.paid })
    // Handed a plain spread or concat too, never registered again.
    expect(capacityOf([...jobs, Schedules.watchdog])).toMatchObject({ plan: "paid" })
    expect(capacityOf(jobs.concat([Schedules.watchdog]))).toMatchObject({ plan: "paid" })
    for (const k of [0, 1]) {
      const { db, counter } = limitedD1(env.DB, PLANS.paid.d1Queries)
      // The database's clock stands in for the test's: slot k is on time.
      const scheduled = Jobs.heartbeat(workerJobs, { now: () => slot(k) + 1_000 } as never)
      await fire(scheduled, slot(k), { ...env, DB: db })
      const line = runLines(k).find((l) => l.job === heavy.name)
      // 60 queries of its own: on the free plan's 42 it fails with D1QueryBudgetError.
      expect(line).toMatchObject({ outcome: "ran" })
      expect(counter.refused).toBe(0)
    }
  })

  it("every queue batch of the re-registered list runs on the declared plan", async () => {
    const heavy = querying(60)
    const workerJobs = Jobs.registry([...Jobs.registry([heavy], { plan: "paid" }), Schedules.watchdog])
    const handler = Jobs.queue(workerJobs, { now: () => slot(5) + 1_000 } as never)
    const { db } = limitedD1(env.DB, PLANS.paid.d1Queries)
    const batch = createMessageBatch("slotwise-jobs", [
      {
        id: "m1",
        timestamp: new Date(),
        attempts: 1,
        body: { job: heavy.name, slot: new Date(slot(5)).toISOString() },
      },
    ])
    const ctx = createExecutionContext()
    await handler(batch, { ...env, DB: db }, ctx)
    await waitOnExecutionContext(ctx)
    expect(runLines(5).find((l) => l.job === heavy.name)).toMatchObject({ outcome: "ran" })
  })

  it("keeps an overflowQueue declared with the slices' list", () => {
    const jobs = Jobs.registry([querying(0)], { plan: "paid", overflowQueue: "JOBS" })
    expect(capacityOf(Jobs.registry([...jobs, Schedules.watchdog]))).toMatchObject({
      plan: "paid",
      overflowQueue: "JOBS",
    })
  })

  it("refuses at load a list whose jobs were declared with different plans, naming the field", () => {
    const a = Jobs.registry([querying(0)], { plan: "paid" })
    const b = Jobs.registry([querying(0)], { plan: "free" })
    expect(() => Jobs.registry([...a, ...b])).toThrow(PlanDeclarationError)
    expect(() => Jobs.registry([...a, ...b])).toThrow(/plan/)
    expect(() => Jobs.heartbeat([...a, ...b])).toThrow(/plan is "paid" and "free"|plan is "free" and "paid"/)
    expect(() => Jobs.queue([...a, ...b])).toThrow(PlanDeclarationError)
    const q1 = Jobs.registry([querying(0)], { overflowQueue: "JOBS" })
    const q2 = Jobs.registry([querying(0)], { overflowQueue: "OTHER" })
    expect(() => Jobs.registry([...q1, ...q2])).toThrow(/overflowQueue/)
    // A declaration given again around them that contradicts theirs is as ambiguous.
    expect(() => Jobs.registry([...a, Schedules.watchdog], { plan: "free" })).toThrow(/plan/)
    // The same declaration twice is one.
    expect(capacityOf(Jobs.registry([...a, ...Jobs.registry([querying(0)], { plan: "paid" })]))).toMatchObject({
      plan: "paid",
    })
  })
})
