import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe, expect, it } from "vitest"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { failingD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"

const logs = captureLogs()
const db = database(env.DB)
const SLOT = new Date(Date.UTC(2026, 10, 30, 3, 0))
const leaseOf = (name: string) => db.select().from(jobsLeases).where(eq(jobsLeases.name, name)).get()

describe("Jobs.run", () => {
  it("runs an exclusive job once for its slot, logs one line and releases", async () => {
    let runs = 0
    const job = Jobs.make({
      name: "run.ok",
      cron: "* * * * *",
      exclusive: true,
      timeout: 1_000,
      run: () => void runs++,
    })
    const first = await Jobs.run(job, SLOT, { env, runId: "r1" })
    const again = await Jobs.run(job, SLOT, { env, runId: "r2" })
    expect(first).toMatchObject({ status: "ran", runId: "r1" })
    expect(again).toMatchObject({ status: "skipped", runId: "r2" })
    expect(runs).toBe(1)
    expect(await leaseOf("run.ok")).toEqual({
      name: "run.ok",
      lastSlot: SLOT.getTime(),
      leaseUntil: null,
      holder: null,
    })
    // The losing run does nothing and logs nothing (seed Decision 5).
    expect(logs.of("job.run")).toEqual([
      expect.objectContaining({
        job: "run.ok",
        slot: SLOT.toISOString(),
        runId: "r1",
        outcome: "ran",
        ms: expect.any(Number),
      }),
    ])
  })

  it("claims with the injected clock and a lease of timeout + 1 minute", async () => {
    let seen: unknown
    const job = Jobs.make({
      name: "run.clock",
      cron: "* * * * *",
      exclusive: true,
      timeout: "30 seconds",
      run: async () => {
        seen = await leaseOf("run.clock")
      },
    })
    const now = SLOT.getTime() + 1_234
    await Jobs.run(job, SLOT, { env, now: () => now, runId: "r-clock" })
    expect(seen).toMatchObject({ holder: "r-clock", leaseUntil: now + 30_000 + 60_000 })
  })

  it("aborts the signal of a run past its timeout, returns timed-out and releases", async () => {
    let aborted: unknown
    const job = Jobs.make({
      name: "run.hang",
      cron: "* * * * *",
      exclusive: true,
      timeout: "1 second",
      run: (_slot, ctx) =>
        new Promise<void>((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            aborted = ctx.signal.reason
            resolve()
          })
        }),
    })
    const result = await Jobs.run(job, SLOT, { env, runId: "r-hang" })
    expect(result.status).toBe("timed-out")
    expect(aborted).toBeInstanceOf(Error)
    expect((aborted as Error).name).toBe("JobTimeoutError")
    expect(await leaseOf("run.hang")).toMatchObject({ lastSlot: SLOT.getTime(), holder: null, leaseUntil: null })
    expect(logs.of("job.run")).toEqual([expect.objectContaining({ outcome: "timed-out", level: "error" })])
  })

  it("stops waiting for a job that ignores its signal", async () => {
    const job = Jobs.make({
      name: "run.deaf",
      cron: "* * * * *",
      exclusive: false,
      timeout: "1 second",
      run: () => new Promise(() => {}),
    })
    expect((await Jobs.run(job, SLOT, { env })).status).toBe("timed-out")
  })

  it("returns failed for a throwing run, logs it once and releases", async () => {
    const job = Jobs.make({
      name: "run.throws",
      cron: "* * * * *",
      exclusive: true,
      timeout: 1_000,
      run: () => {
        throw new Error("card declined")
      },
    })
    const result = await Jobs.run(job, SLOT, { env, runId: "r-throw" })
    expect(result.status).toBe("failed")
    expect(logs.of("job.run")).toEqual([
      expect.objectContaining({ outcome: "failed", error: "Error: card declined", runId: "r-throw" }),
    ])
    expect(await leaseOf("run.throws")).toMatchObject({ holder: null, lastSlot: SLOT.getTime() })
  })

  it("gives the slot up after exactly one claim attempt when D1 fails, with one log line", async () => {
    const { db: broken, calls } = failingD1(env.DB)
    let runs = 0
    const job = Jobs.make({
      name: "run.d1-down",
      cron: "* * * * *",
      exclusive: true,
      timeout: 1_000,
      run: () => void runs++,
    })
    const result = await Jobs.run(job, SLOT, { env: { ...env, DB: broken } })
    expect(result.status).toBe("skipped")
    expect(calls.filter((query) => query.includes("jobs_leases"))).toHaveLength(1)
    expect(runs).toBe(0)
    expect(logs.of("job.run")).toEqual([
      expect.objectContaining({
        outcome: "skipped",
        reason: "claim failed",
        error: expect.stringContaining("D1_ERROR"),
      }),
    ])
    // The next slot, with D1 healthy again, does the work.
    const next = new Date(SLOT.getTime() + 60_000)
    expect((await Jobs.run(job, next, { env })).status).toBe("ran")
    expect(runs).toBe(1)
  })

  it("keeps the run's outcome when only the release fails, and the lease then expires by itself", async () => {
    const { db: flaky } = failingD1(env.DB, (query) => query.startsWith("update"))
    const job = Jobs.make({
      name: "run.release-fails",
      cron: "* * * * *",
      exclusive: true,
      timeout: 1_000,
      run: () => {},
    })
    const result = await Jobs.run(job, SLOT, { env: { ...env, DB: flaky }, runId: "r-rel" })
    expect(result.status).toBe("ran")
    expect(logs.of("job.run")).toEqual([expect.objectContaining({ outcome: "ran", releaseError: expect.any(String) })])
    expect(await leaseOf("run.release-fails")).toMatchObject({ holder: "r-rel" })
  })

  it("runs a non-exclusive job without touching the lease table", async () => {
    const job = Jobs.make({ name: "run.shared", cron: "* * * * *", exclusive: false, timeout: 1_000, run: () => {} })
    expect((await Jobs.run(job, SLOT, { env })).status).toBe("ran")
    expect((await Jobs.run(job, SLOT, { env })).status).toBe("ran")
    expect(await leaseOf("run.shared")).toBeUndefined()
  })
})
