import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe, expect, it, vi } from "vitest"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import { beat, HEARTBEAT_CRON } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { DuplicateJobError, type Job, Jobs } from "../../src/infra/jobs/index.ts"
import worker from "../../src/isolate.ts"
import { jobs } from "../../src/jobs.ts"
import { lateD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"

const logs = captureLogs()
const db = database(env.DB)
const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 10, 30, hh, mm, ss)
const leaseOf = (name: string) => db.select().from(jobsLeases).where(eq(jobsLeases.name, name)).get()

async function fire(scheduledTime: number) {
  const ctx = createExecutionContext()
  await worker.scheduled(createScheduledController({ scheduledTime, cron: HEARTBEAT_CRON }), env, ctx)
  await waitOnExecutionContext(ctx)
}

const job = (name: string, run: Job["run"], extra: Partial<Parameters<typeof Jobs.make>[0]> = {}) =>
  Jobs.make({ name, cron: "* * * * *", exclusive: true, timeout: "1 second", run, ...extra })

describe("scheduled()", () => {
  it("runs a 0 3 * * * job at the 03:00 slot, flooring the scheduled time, and not at 03:01", async () => {
    await fire(at(3, 0, 42))
    expect(await leaseOf("billing.close-expired-trials")).toMatchObject({ lastSlot: at(3, 0), holder: null })
    await fire(at(3, 1, 5))
    expect((await leaseOf("billing.close-expired-trials"))?.lastSlot).toBe(at(3, 0))
    expect((await leaseOf("billing.roll-up-usage"))?.lastSlot).toBe(at(3, 1))
  })

  it("runs every job due in one heartbeat, and a repeated heartbeat runs an exclusive job once", async () => {
    await fire(at(4, 0))
    await fire(at(4, 0))
    const ran = logs
      .of("job.run")
      .filter((line) => line.outcome === "ran")
      .map((line) => line.job)
    expect(ran.sort()).toEqual(["billing.roll-up-usage", "schedules.alarm-watchdog", "slotwise.alerts"])
    await fire(at(3, 0) + 86_400_000)
    const next = logs
      .of("job.run")
      .filter((line) => line.outcome === "ran" && line.slot === new Date(at(3, 0) + 86_400_000).toISOString())
    expect(next.map((line) => line.job).sort()).toEqual([
      "billing.close-expired-trials",
      "billing.roll-up-usage",
      "schedules.alarm-watchdog",
      "slotwise.alerts",
    ])
  })

  it("lets no failing or hanging job stop the others", async () => {
    const order: string[] = []
    const list = Jobs.registry([
      job("beat.throws", () => {
        throw new Error("boom")
      }),
      job("beat.hangs", () => new Promise(() => {})),
      job("beat.works", () => void order.push("works")),
    ])
    const results = await beat(list, at(5, 0), env)
    expect(Object.fromEntries(results.map((r) => [r.job, r.status]))).toEqual({
      "beat.throws": "failed",
      "beat.hangs": "timed-out",
      "beat.works": "ran",
    })
    expect(order).toEqual(["works"])
  })

  it("runs the due jobs concurrently", async () => {
    let inFlight = 0
    let peak = 0
    const slow = (name: string) =>
      job(name, async () => {
        peak = Math.max(peak, ++inFlight)
        await new Promise((resolve) => setTimeout(resolve, 50))
        inFlight--
      })
    await beat([slow("beat.slow-a"), slow("beat.slow-b"), slow("beat.slow-c")], at(6, 0), env)
    expect(peak).toBe(3)
  })

  it("releases a claim D1 answered after the deadline, through waitUntil, so the next heartbeat runs the job", async () => {
    let answer = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    const { db: slow } = lateD1(env.DB, (query) => (query.startsWith("insert") ? answered : undefined))
    const handed: Array<Promise<unknown>> = []
    let runs = 0
    const late = job("beat.late-claim", () => void runs++, { timeout: "15 minutes" })
    const options = { d1DeadlineMs: 50, waitUntil: (promise: Promise<unknown>) => void handed.push(promise) }
    expect(await beat([late], at(8, 0), { ...env, DB: slow }, options)).toEqual([
      expect.objectContaining({ status: "skipped", reason: "claim timed out" }),
    ])
    answer()
    await Promise.all(handed)
    expect(await beat([late], at(8, 1), env)).toEqual([expect.objectContaining({ status: "ran" })])
    expect(runs).toBe(1)
  })

  it("keeps a late claim's release alive through scheduled()'s ctx.waitUntil", async () => {
    let answer = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    const { db: slow } = lateD1(env.DB, (query) => (query.startsWith("insert") ? answered : undefined))
    let runs = 0
    const late = job("beat.late-scheduled", () => void runs++, { timeout: "15 minutes" })
    const scheduled = Jobs.heartbeat([late], { d1DeadlineMs: 50 })
    const ctx = createExecutionContext()
    const handed = vi.spyOn(ctx, "waitUntil")
    await scheduled(
      createScheduledController({ scheduledTime: at(9, 0), cron: HEARTBEAT_CRON }),
      { ...env, DB: slow },
      ctx,
    )
    expect(handed).toHaveBeenCalledTimes(1)
    answer()
    // The release, chained on the late answer, was handed to the execution context: waiting on it lets it finish.
    await waitOnExecutionContext(ctx)
    expect(await leaseOf("beat.late-scheduled")).toMatchObject({ lastSlot: at(9, 0), holder: null, leaseUntil: null })
    expect(await beat([late], at(9, 1), env)).toEqual([expect.objectContaining({ status: "ran" })])
    expect(runs).toBe(1)
  })

  it("never throws, even when every run fails", async () => {
    const broken = { ...env, DB: undefined as unknown as D1Database }
    const results = await beat([job("beat.no-db", () => {})], at(7, 0), broken)
    expect(results).toEqual([expect.objectContaining({ job: "beat.no-db", status: "skipped" })])
  })

  it("fails at start-up on a duplicate job name", () => {
    const a = job("beat.twice", () => {})
    expect(() => Jobs.registry([a, job("beat.twice", () => {})])).toThrow(DuplicateJobError)
    expect(() => Jobs.registry([a, job("beat.twice", () => {})])).toThrow(
      'job "beat.twice" is declared twice in the list given to `Jobs.registry`',
    )
    expect(() => Jobs.registry([a])).not.toThrow()
  })

  it("runs nothing for a cron that is not the heartbeat's, and writes one warning line naming it", async () => {
    let runs = 0
    const scheduled = Jobs.heartbeat([job("beat.other-cron", () => void runs++)])
    const ctx = createExecutionContext()
    await scheduled(createScheduledController({ scheduledTime: at(3, 0), cron: "0 3 * * *" }), env, ctx)
    await waitOnExecutionContext(ctx)
    expect(runs).toBe(0)
    expect(await leaseOf("beat.other-cron")).toBeUndefined()
    expect(logs.lines).toEqual([
      expect.objectContaining({ level: "warn", message: "heartbeat: not its cron", cron: "0 3 * * *" }),
    ])
    expect(logs.lines[0]).toMatchObject({ heartbeatCron: HEARTBEAT_CRON, scheduledTime: at(3, 0) })
  })

  it("runs on the cron it is configured with, and not on the default one", async () => {
    let runs = 0
    const scheduled = Jobs.heartbeat([job("beat.every-5", () => void runs++)], { cron: "*/5 * * * *" })
    const fireWith = async (cron: string, scheduledTime: number) => {
      const ctx = createExecutionContext()
      await scheduled(createScheduledController({ scheduledTime, cron }), env, ctx)
      await waitOnExecutionContext(ctx)
    }
    await fireWith("*/5 * * * *", at(10, 5))
    expect(runs).toBe(1)
    expect(await leaseOf("beat.every-5")).toMatchObject({ lastSlot: at(10, 5) })
    await fireWith(HEARTBEAT_CRON, at(10, 10))
    expect(runs).toBe(1)
    expect(logs.of("heartbeat: not its cron")).toEqual([
      expect.objectContaining({ cron: HEARTBEAT_CRON, heartbeatCron: "*/5 * * * *" }),
    ])
  })

  it("lets a Worker dispatch between a trigger of its own and the heartbeat, as docs/add-to-a-worker.md shows", async () => {
    const nightly: number[] = []
    let runs = 0
    const nightlyExport = async (_env: Env) => void nightly.push(1)
    const heartbeat = Jobs.heartbeat([job("beat.dispatched", () => void runs++)])
    const handler = {
      scheduled: async (controller, env, ctx) => {
        if (controller.cron === "0 3 * * *") return nightlyExport(env)
        await heartbeat(controller, env, ctx)
      },
    } satisfies ExportedHandler<Env>
    for (const cron of ["0 3 * * *", HEARTBEAT_CRON]) {
      const ctx = createExecutionContext()
      await handler.scheduled(createScheduledController({ scheduledTime: at(3, 0), cron }), env, ctx)
      await waitOnExecutionContext(ctx)
    }
    expect({ nightly: nightly.length, runs }).toEqual({ nightly: 1, runs: 1 })
    expect(logs.of("heartbeat: not its cron")).toEqual([])
  })

  it("refuses, when it is declared, a cron that does not parse, naming `cron`", () => {
    const jobs = [job("beat.bad-cron", () => {})]
    expect(() => Jobs.heartbeat(jobs, { cron: "every minute" })).toThrow(/Jobs\.heartbeat: cron "every minute"/)
    expect(() => Jobs.heartbeat(jobs, { cron: "0 * * * * *" })).toThrow(/cron .*seconds field/)
    expect(() => Jobs.heartbeat(jobs, { cron: 5 as unknown as string })).toThrow(/Jobs\.heartbeat: cron must be/)
    expect(() => Jobs.heartbeat(jobs, { cron: "*/5 * * * *" })).not.toThrow()
  })

  it("keeps wrangler.toml's one trigger equal to the heartbeat (drift check)", () => {
    const crons = /crons\s*=\s*\[([^\]]*)\]/.exec(env.TEST_WRANGLER_TOML)?.[1]
    expect(crons?.split(",").map((cron) => cron.trim().replace(/^"|"$/g, ""))).toEqual([HEARTBEAT_CRON])
    expect(new Set(jobs.map((j) => j.name)).size).toBe(jobs.length)
  })
})
