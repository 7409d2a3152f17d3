import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { PLANS } from "../../src/infra/jobs/contract/capacity.ts"
import { beat, HEARTBEAT_CRON } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { lateD1, limitedD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"

const logs = captureLogs()
const MINUTE = 60_000
// Far from other tests' slots; not yet due by the database's clock, so each invocation carries a test clock.
const S0 = Date.UTC(2096, 6, 1, 8, 0)
const slot = (k: number) => S0 + k * MINUTE
const iso = (k: number) => new Date(slot(k)).toISOString()
const onTime = (k: number) => ({ now: () => slot(k) + 1_000 })
const FREE = PLANS.free.d1Queries

let made = 0
const job = (run: Job["run"], timeout: Parameters<typeof Jobs.make>[0]["timeout"] = "30 seconds"): Job =>
  Jobs.make({ name: `budget.job-${++made}`, cron: "* * * * *", exclusive: true, timeout, run })

type Lease = { name: string; holder: string | null; last_run_slot: number | null; last_slot: number }
async function leases(list: readonly Job[]): Promise<Map<string, Lease>> {
  const names = JSON.stringify(list.map((j) => j.name))
  const { results } = await env.DB.prepare(
    "select name, holder, last_run_slot, last_slot from jobs_leases where name in (select value from json_each(?))",
  )
    .bind(names)
    .all<Lease>()
  return new Map(results.map((row) => [row.name, row]))
}

const deferred = () => {
  let resolve = () => {}
  const promise = new Promise<void>((done) => {
    resolve = done
  })
  return { promise, resolve }
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("one D1 budget an invocation, with no way around it", () => {
  it("counts a job's queries through env.DB.withSession(): the release is never refused by D1", async () => {
    const sessions = job(async (_slot, ctx) => {
      const session = (ctx.env as Env).DB.withSession()
      for (let q = 0; q < 60; q++) await session.prepare("select 1").all()
    })
    const list = Jobs.registry([sessions])
    const { db, counter } = limitedD1(env.DB, FREE)
    const [result] = await beat(list, slot(0), { ...env, DB: db }, onTime(0))
    expect(counter.refused).toBe(0)
    // Its 43rd query was refused by slotwise, before D1: the run failed, and is recorded.
    expect(result).toMatchObject({ status: "failed" })
    expect((await leases(list)).get(sessions.name)).toMatchObject({ holder: null, last_run_slot: slot(0) })
  })

  it("sends a late claim's compensating releases within the budget: 60 jobs, none refused, every next slot runs", async () => {
    const list = Jobs.registry(Array.from({ length: 60 }, () => job(() => {})))
    const answered = deferred()
    const late = lateD1(env.DB, (query) => (query.startsWith("insert") ? answered.promise : undefined))
    const { db, counter } = limitedD1(late.db, FREE)
    const scheduled = Jobs.heartbeat(list, { d1DeadlineMs: 50, ...onTime(1) } as never)
    const ctx = createExecutionContext()
    await scheduled(
      { scheduledTime: slot(1), cron: HEARTBEAT_CRON, noRetry: () => {} },
      { ...env, DB: db } as never,
      ctx,
    )
    expect(logs.of("job.run").filter((l) => l.reason === "claim timed out")).toHaveLength(60)
    answered.resolve()
    await waitOnExecutionContext(ctx)
    expect(counter.refused).toBe(0)
    expect([...(await leases(list)).values()].filter((lease) => lease.holder !== null)).toEqual([])
    const next = await beat(list, slot(2), env, onTime(2))
    expect(next.filter((r) => r.status === "ran")).toHaveLength(60)
  })

  it("releases a run that ended without waiting for an unrelated slow run, whatever the number of batches", async () => {
    const slow = deferred()
    const ends = Array.from({ length: 8 }, deferred)
    const fast = ends.map((end) => job(() => end.promise))
    const slowJob = job(() => slow.promise, "15 minutes")
    const list = Jobs.registry([slowJob, ...fast])
    const { db, counter } = limitedD1(env.DB, FREE)
    const beating = beat(list, slot(3), { ...env, DB: db }, onTime(3))
    await pause(20)
    // Each ends in a group-commit window of its own: more batches than the releases' own share (5 on free).
    for (const end of ends) {
      end.resolve()
      await pause(80)
    }
    await pause(100)
    const held = await leases(fast)
    expect([...held.values()].filter((lease) => lease.holder !== null || lease.last_run_slot !== slot(3))).toEqual([])
    slow.resolve()
    const results = await beating
    expect(results.filter((r) => r.status === "ran")).toHaveLength(9)
    expect(counter.refused).toBe(0)
  })

  it("claims a queue batch's repeated slots of one job in the batch's one claim query: no release refused", async () => {
    const backlog = job(() => {})
    // Spends every query the jobs are left.
    const greedy = job(async (_slot, ctx) => {
      for (;;) await (ctx.env as Env).DB.prepare("select 1").all()
    })
    const list = Jobs.registry([backlog, greedy])
    const messages = [
      ...[4, 5, 6, 7, 7].map((k) => ({ job: backlog.name, slot: iso(k) })),
      { job: greedy.name, slot: iso(7) },
    ]
    const batch = createMessageBatch(
      "slotwise-jobs",
      messages.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
    )
    const { db, counter } = limitedD1(env.DB, FREE)
    const ctx = createExecutionContext()
    await Jobs.queue(list, onTime(7) as never)(batch, { ...env, DB: db } as never, ctx)
    await waitOnExecutionContext(ctx)
    expect(counter.refused).toBe(0)
    const rows = await leases(list)
    expect(rows.get(backlog.name)).toMatchObject({ holder: null, last_run_slot: slot(7) })
    expect(rows.get(greedy.name)).toMatchObject({ holder: null, last_run_slot: slot(7) })
  })

  it("says at error level that a run ran but was not recorded when its lease was no longer its own", async () => {
    const reclaimed = job(async (slotTime, ctx) => {
      // Another run took the lease (as after this run's lease expired): this run's release no longer holds it.
      await (ctx.env as Env).DB.prepare("update jobs_leases set holder = 'another-run', last_slot = ? where name = ?")
        .bind(slotTime.getTime() + MINUTE, ctx.runId === "" ? "" : reclaimedName())
        .run()
    })
    const reclaimedName = () => reclaimed.name
    await beat(Jobs.registry([reclaimed]), slot(9), env, onTime(9))
    const [line] = logs.of("job.run").filter((l) => l.job === reclaimed.name)
    expect(line).toMatchObject({ level: "error", outcome: "ran", recorded: false })
    expect(String(line?.releaseError)).toMatch(/not recorded/)
  })
})
