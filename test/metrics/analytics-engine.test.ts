import { env } from "cloudflare:workers"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { Schedules } from "../../src/infra/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { batchPoint, runPoint } from "../../src/infra/metrics/index.ts"
import { resetConsumers, script } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, T0, value } from "../support/streams.ts"

const logs = captureLogs()
const MINUTE = 60_000
const SLOT = Date.UTC(2026, 10, 30, 3, 0)

/** A clock that answers each of `times` once, then the last one again. */
const clock = (...times: number[]) => {
  let i = 0
  return () => times[Math.min(i++, times.length - 1)] as number
}

/** The dataset's writeDataPoint, observed (the real one still runs unless a test replaces it); restored after each test. */
let spied: Array<{ mockRestore(): void }> = []
const observe = (dataset: AnalyticsEngineDataset) => {
  const spy = vi.spyOn(dataset, "writeDataPoint")
  spied.push(spy)
  return spy
}

beforeEach(() => resetConsumers())
// Only these spies: captureLogs' console spies stay.
afterEach(() => {
  for (const spy of spied) spy.mockRestore()
  spied = []
})

describe("the Analytics Engine binding", () => {
  it("is bound by the Worker's config as SLOTWISE_METRICS, and the local runtime's dataset takes slotwise's points", () => {
    const dataset = env.SLOTWISE_METRICS
    expect(typeof dataset.writeDataPoint).toBe("function")
    const run = { job: "a.job", slot: SLOT, outcome: "ran" as const, ms: 40, lateMs: 2_000, missed: 0 }
    expect(() => dataset.writeDataPoint(runPoint(run))).not.toThrow()
    const batch = { stream: "tenant-7", delivered: 3, retried: 1, failed: 0, late: [5, 9, 700] }
    expect(() => dataset.writeDataPoint(batchPoint(batch))).not.toThrow()
  })
})

describe("a job run's data point", () => {
  it("is one per run: the job, its outcome, duration, lateness and the slots missed since its previous run", async () => {
    const written = observe(env.SLOTWISE_METRICS)
    let fail = false
    const job = Jobs.make({
      name: "metrics.nightly",
      cron: "0 3 * * *",
      exclusive: true,
      timeout: "1 minute",
      run: () => {
        if (fail) throw new Error("no luck")
      },
    })
    const run = (slot: number, ms: number) =>
      Jobs.run(job, new Date(slot), { env, now: clock(slot + 2_000, slot + 2_000, slot + 2_000 + ms) })
    await run(SLOT, 40)
    // Two nights go by without a run; the third night's run fails.
    fail = true
    await run(SLOT + 3 * 24 * 60 * MINUTE, 75)
    // The same slot again: taken, so no run and no point.
    await run(SLOT + 3 * 24 * 60 * MINUTE, 5)
    expect(written.mock.calls.map(([point]) => point)).toEqual([
      { indexes: ["metrics.nightly"], blobs: ["job", "metrics.nightly", "ran"], doubles: [40, 2_000, 0] },
      { indexes: ["metrics.nightly"], blobs: ["job", "metrics.nightly", "failed"], doubles: [75, 2_000, 2] },
    ])
  })

  it("never fails a run: a dataset that throws is logged once and the run goes on", async () => {
    observe(env.SLOTWISE_METRICS).mockImplementation(() => {
      throw new Error("dataset unavailable")
    })
    const job = Jobs.make({
      name: "metrics.unlucky",
      cron: "* * * * *",
      exclusive: false,
      timeout: 1_000,
      run: () => {},
    })
    expect((await Jobs.run(job, new Date(SLOT), { env })).status).toBe("ran")
    expect((await Jobs.run(job, new Date(SLOT + MINUTE), { env })).status).toBe("ran")
    expect(logs.of("slotwise metrics could not be written")).toHaveLength(1)
  })
})

describe("a settled batch's data point", () => {
  it("is one per batch: deliveries, retries, failures and the lateness median, p99 and max", async () => {
    const stream = openStream("metrics-batch")
    for (const id of ["a", "b", "c", "retries", "fails"]) {
      value(await stream.upsert({ id, consumer: "test.scripted", at: T0 }, T0 - MINUTE))
    }
    script.set("retries", ["retry"])
    script.set("fails", ["terminal"])
    // The runtime's own binding, as the Worker's env holds it: the stream's object is given this same env.
    const written = observe(env.SLOTWISE_METRICS)
    await stream.tick(T0 + 1_500)
    const points = written.mock.calls.map(([point]) => point)
    expect(points).toEqual([
      {
        indexes: [stream.name],
        blobs: ["stream", stream.name, "batch"],
        doubles: [3, 1, 1, 1_500, 1_500, 1_500, 3],
      },
    ])
  })

  it("says how many of its deliveries were timed: a batch of backfilled occurrences only is no on-time sample", async () => {
    const stream = openStream("metrics-backfill")
    const client = Schedules.stream(env.SCHEDULES, stream.name)
    await stream.setNow(T0)
    await client.upsert({ id: "m", consumer: "test.scripted", every: "1 minute", startAt: T0 - 10 * MINUTE })
    const { backfill } = await client.backfill("m", { from: T0 - 3 * MINUTE, to: T0 - MINUTE })
    const written = observe(env.SLOTWISE_METRICS)
    await stream.tick(T0)
    const points = written.mock.calls.map(([point]) => point)
    // Three delivered, none timed: double7 is 0, so the docs' p99 query (double7 > 0) leaves the point out.
    expect(points).toEqual([
      { indexes: [stream.name], blobs: ["stream", stream.name, "batch"], doubles: [backfill.count, 0, 0, 0, 0, 0, 0] },
    ])
    expect(backfill.count).toBe(3)
  })
})
