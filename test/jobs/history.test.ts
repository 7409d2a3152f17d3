import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe, expect, it } from "vitest"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import {
  lastRunOf,
  RUN_ERROR_MAX,
  RUN_HISTORY_LENGTH,
  RUN_SUMMARY_MAX_BYTES,
  runsOf,
  summaryOf,
} from "../../src/infra/jobs/contract/record.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { captureLogs } from "../support/logs.ts"
import { countingRoundTrips } from "../support/round-trips.ts"

const logs = captureLogs()
const db = database(env.DB)
const T0 = Date.UTC(2026, 10, 30, 3, 0)
const MINUTE = 60_000
const slot = (n: number) => new Date(T0 + n * MINUTE)
const leaseOf = (name: string) => db.select().from(jobsLeases).where(eq(jobsLeases.name, name)).get()
const rowOf = (name: string) => env.DB.prepare("SELECT * FROM jobs_leases WHERE name = ?").bind(name).first()

/** A clock the test moves: each call answers the next of `times`, then the last one again. */
const clock = (...times: number[]) => {
  let i = 0
  return () => times[Math.min(i++, times.length - 1)] as number
}

let jobs = 0
const exclusive = (run: Job["run"], timeout: number | "1 second" = 1_000) =>
  Jobs.make({ name: `history.job-${++jobs}`, cron: "* * * * *", exclusive: true, timeout, run })

describe("a run's record, written by the release that ends it", () => {
  it("records ran, failed and timed-out with the run id, duration, finish time and the error cut to its limit", async () => {
    const long = "x".repeat(RUN_ERROR_MAX * 3)
    let step = 0
    const job = exclusive(async (_slot, ctx) => {
      step++
      if (step === 2) throw new Error(long)
      if (step === 3) await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve))
    }, "1 second")
    const start = slot(0).getTime() + 2_000
    await Jobs.run(job, slot(0), { env, runId: "r-ran", now: clock(start, start, start + 40) })
    expect(lastRunOf(await leaseOf(job.name))).toEqual({
      slot: slot(0).getTime(),
      runId: "r-ran",
      outcome: "ran",
      ms: 40,
      finishedAt: start + 40,
      error: null,
    })
    await Jobs.run(job, slot(1), { env, runId: "r-failed" })
    const failed = lastRunOf(await leaseOf(job.name))
    expect(failed).toMatchObject({ slot: slot(1).getTime(), runId: "r-failed", outcome: "failed" })
    expect(failed?.error).toHaveLength(RUN_ERROR_MAX)
    expect(failed?.error).toMatch(/^Error: xxx+…$/)
    await Jobs.run(job, slot(2), { env, runId: "r-timed-out" })
    expect(lastRunOf(await leaseOf(job.name))).toMatchObject({
      outcome: "timed-out",
      runId: "r-timed-out",
      error: "passed its 1000 ms timeout",
    })
    // The row still holds the lease's own facts: released, and the last slot claimed.
    expect(await leaseOf(job.name)).toMatchObject({ lastSlot: slot(2).getTime(), leaseUntil: null, holder: null })
    expect(runsOf(await leaseOf(job.name)).map((run) => run.runId)).toEqual(["r-timed-out", "r-failed", "r-ran"])
  })

  it(`keeps the newest ${RUN_HISTORY_LENGTH} runs, newest first, in the same row`, async () => {
    const job = exclusive(() => {})
    const runs = RUN_HISTORY_LENGTH + 5
    for (let n = 0; n < runs; n++) await Jobs.run(job, slot(n), { env, runId: `r-${n}` })
    const history = runsOf(await leaseOf(job.name))
    expect(history).toHaveLength(RUN_HISTORY_LENGTH)
    expect(history.map((run) => run.slot)).toEqual(
      Array.from({ length: RUN_HISTORY_LENGTH }, (_, i) => slot(runs - 1 - i).getTime()),
    )
    expect(history[0]).toEqual(lastRunOf(await leaseOf(job.name)))
  })

  it("keeps quotes, newlines and other text of an error intact in the history's JSON", async () => {
    const message = `"quoted" \\ back\nslash ünïcödé 🙂 '); DROP TABLE jobs_leases; --`
    const job = exclusive(() => {
      throw new Error(message)
    })
    await Jobs.run(job, slot(0), { env })
    expect(runsOf(await leaseOf(job.name))[0]?.error).toBe(`Error: ${message}`)
  })

  it("releases and records a run that throws a value with no prototype, with a readable error", async () => {
    const job = exclusive(() => {
      throw Object.assign(Object.create(null), { reason: "odd" })
    })
    const result = await Jobs.run(job, slot(0), { env, runId: "r-odd" })
    expect(result).toMatchObject({ status: "failed", runId: "r-odd" })
    expect(await leaseOf(job.name)).toMatchObject({ holder: null, leaseUntil: null, lastSlot: slot(0).getTime() })
    expect(lastRunOf(await leaseOf(job.name))).toMatchObject({
      runId: "r-odd",
      outcome: "failed",
      error: 'object {"reason":"odd"}',
    })
  })

  it("gives the log line and the record the same ms: one measurement, even as the clock moves on", async () => {
    const job = exclusive(() => {})
    const start = slot(0).getTime() + 1_000
    await Jobs.run(job, slot(0), { env, runId: "r-ms", now: clock(start, start, start + 40, start + 95, start + 300) })
    const record = lastRunOf(await leaseOf(job.name))
    const [line] = logs.of("job.run").filter((entry) => entry.runId === "r-ms")
    expect(record?.ms).toBe(40)
    expect(line?.ms).toBe(record?.ms)
  })

  it("writes nothing for a run whose claim is refused because the slot is taken", async () => {
    const job = exclusive(() => {})
    await Jobs.run(job, slot(0), { env, runId: "r-owner" })
    const before = await rowOf(job.name)
    expect(await Jobs.run(job, slot(0), { env, runId: "r-refused" })).toMatchObject({ reason: "slot taken" })
    expect(await rowOf(job.name)).toEqual(before)
  })

  it("costs a run the two round trips it always took, the claim and the release's batch, and no other", async () => {
    const { db: counted, trips } = countingRoundTrips(env.DB)
    const job = exclusive((_slot, ctx) => ctx.report({ items: 3 }))
    expect((await Jobs.run(job, slot(0), { env: { ...env, DB: counted } })).status).toBe("ran")
    // The batch: the release, which records the run and folds it into its hour, on the lease row.
    expect(trips).toEqual(["insert into jobs_leases", "batch of 1"])
    expect(runsOf(await leaseOf(job.name))).toHaveLength(1)
    expect(summaryOf(await leaseOf(job.name))).toEqual({ items: 3 })
  })
})

describe("ctx.report", () => {
  it("stores the last summary a run reported, and a run that reports none clears it", async () => {
    let report: Record<string, unknown> | undefined = { stale: 2, mostOverdue: { stream: "tenant-7", lagMs: 300_000 } }
    const job = exclusive((_slot, ctx) => {
      if (report) {
        ctx.report({ first: true })
        ctx.report(report)
      }
    })
    await Jobs.run(job, slot(0), { env })
    expect(summaryOf(await leaseOf(job.name))).toEqual(report)
    report = undefined
    await Jobs.run(job, slot(1), { env })
    expect(summaryOf(await leaseOf(job.name))).toBeNull()
  })

  it.each([
    ["too large", { text: "x".repeat(RUN_SUMMARY_MAX_BYTES) }, /more than 1024/],
    ["not an object", [1, 2], /must be a JSON object/],
    [
      "circular",
      (() => {
        const loop: Record<string, unknown> = {}
        loop.self = loop
        return loop
      })(),
      /not JSON/,
    ],
  ])("fails the run with an error naming report when the summary is %s", async (_what, summary, message) => {
    const job = exclusive((_slot, ctx) => ctx.report(summary as Record<string, unknown>))
    expect((await Jobs.run(job, slot(0), { env })).status).toBe("failed")
    const run = lastRunOf(await leaseOf(job.name))
    expect(run?.error).toMatch(/^RangeError: report: /)
    expect(run?.error).toMatch(message)
    expect(summaryOf(await leaseOf(job.name))).toBeNull()
  })
})
