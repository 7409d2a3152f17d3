import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe, expect, it } from "vitest"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { failingD1, lateD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"

const logs = captureLogs()
const db = database(env.DB)
const SLOT = new Date(Date.UTC(2026, 10, 30, 3, 0))
const isClaim = (query: string) => query.startsWith("insert") && query.includes("jobs_leases")
const isRelease = (query: string) => query.startsWith("update") && query.includes("jobs_leases")
const FOREVER = new Promise<never>(() => {})

/** A promise the test settles, and what the run handed to waitUntil. */
function harness() {
  let answer = () => {}
  const answered = new Promise<void>((resolve) => {
    answer = resolve
  })
  const handed: Array<Promise<unknown>> = []
  return { answer, answered, handed, waitUntil: (promise: Promise<unknown>) => void handed.push(promise) }
}

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
    expect(await leaseOf("run.ok")).toMatchObject({
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

  it("releases a claim that commits but answers after the D1 deadline, so the next slot runs", async () => {
    const { answer, answered, handed, waitUntil } = harness()
    const { db: slow } = lateD1(env.DB, (query) => (isClaim(query) ? answered : undefined))
    let runs = 0
    const job = Jobs.make({
      name: "run.late-claim",
      cron: "* * * * *",
      exclusive: true,
      timeout: "15 minutes",
      run: () => void runs++,
    })
    const deps = { env: { ...env, DB: slow }, runId: "r-late", d1DeadlineMs: 50, waitUntil }
    expect(await Jobs.run(job, SLOT, deps)).toMatchObject({ status: "skipped", reason: "claim timed out" })
    expect(runs).toBe(0)
    // D1 committed the claim: the run that gave up holds the slot's lease for 16 minutes.
    expect(await leaseOf("run.late-claim")).toMatchObject({ holder: "r-late", lastSlot: SLOT.getTime() })
    expect(logs.of("job.run")).toEqual([
      expect.objectContaining({ runId: "r-late", outcome: "skipped", reason: "claim timed out", level: "error" }),
    ])

    answer()
    await Promise.all(handed)
    expect(await leaseOf("run.late-claim")).toMatchObject({
      name: "run.late-claim",
      lastSlot: SLOT.getTime(),
      leaseUntil: null,
      holder: null,
    })
    const next = new Date(SLOT.getTime() + 60_000)
    expect(await Jobs.run(job, next, { env })).toMatchObject({ status: "ran" })
    expect(runs).toBe(1)
    // Still one log line per run: the compensating release writes none.
    expect(logs.of("job.run")).toHaveLength(2)
  })

  it("releases nothing when a late claim answers that the slot was taken", async () => {
    const { answer, answered, handed, waitUntil } = harness()
    const { db: slow, calls } = lateD1(env.DB, (query) => (isClaim(query) ? answered : undefined))
    const job = Jobs.make({ name: "run.late-lost", cron: "* * * * *", exclusive: true, timeout: 1_000, run: () => {} })
    expect((await Jobs.run(job, SLOT, { env })).status).toBe("ran")
    const deps = { env: { ...env, DB: slow }, runId: "r-lost", d1DeadlineMs: 50, waitUntil }
    expect(await Jobs.run(job, SLOT, deps)).toMatchObject({ status: "skipped", reason: "claim timed out" })
    answer()
    await Promise.all(handed)
    expect(calls.filter(isRelease)).toEqual([])
  })

  it("bounds the compensating release by the D1 deadline", async () => {
    const { answer, answered, handed, waitUntil } = harness()
    // The claim answers late; the release it then sends commits but never answers.
    const { db: slow, calls } = lateD1(env.DB, (query) =>
      isClaim(query) ? answered : isRelease(query) ? FOREVER : undefined,
    )
    const job = Jobs.make({ name: "run.late-both", cron: "* * * * *", exclusive: true, timeout: 1_000, run: () => {} })
    await Jobs.run(job, SLOT, { env: { ...env, DB: slow }, runId: "r-both", d1DeadlineMs: 50, waitUntil })
    answer()
    expect(handed).toHaveLength(1)
    const settled = await Promise.race([
      Promise.all(handed).then(() => "settled"),
      new Promise((resolve) => setTimeout(resolve, 2_000, "still waiting")),
    ])
    expect(settled).toBe("settled")
    expect(calls.filter(isRelease)).toHaveLength(1)
    expect(await leaseOf("run.late-both")).toMatchObject({ holder: null })
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
