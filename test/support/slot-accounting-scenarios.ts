import { expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import { PLANS } from "../../src/infra/jobs/contract/capacity.ts"
import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { handleMessages } from "../../src/infra/jobs/handlers/queue-handler.ts"
import { jobHistory } from "../../src/infra/jobs/history/history.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { readRunHours } from "../../src/infra/jobs/protocol/run-hours.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
// Epoch milliseconds past 2^31, far from other scenarios' slots.
const T0 = Date.UTC(2026, 8, 14, 6, 0)

let made = 0

/**
 * Every due slot ends in one outcome with its one history entry, on D1 (test/jobs/accounting.test.ts), libSQL
 * and a PostgreSQL server (test/node/slot-accounting.test.ts), each through its D1 binding: a run's error text
 * PostgreSQL cannot store, and the skipped slots' entries (lease held, slot taken, over capacity).
 */
export function slotAccountingScenarios(binding: () => D1Database) {
  const env = () => ({ DB: binding() }) as never
  const make = (run: Job["run"] = () => {}, timeout: Parameters<typeof Jobs.make>[0]["timeout"] = "1 minute") =>
    Jobs.make({ name: `accounting.job-${Date.now()}-${++made}`, cron: "* * * * *", exclusive: true, timeout, run })
  const onTime = (slot: number) => ({ now: () => slot + 1_000 })
  const historyOf = async (job: Job, now: number) => {
    const { rows, firstRun, lease } = await readRunHours(database(binding()), job.name, now - 2 * HOUR)
    return jobHistory(job, rows, firstRun, lease, now, 1)
  }
  const leaseOf = async (name: string) =>
    (
      await binding()
        .prepare("select holder, last_run_slot, last_error from jobs_leases where name = ?")
        .bind(name)
        .all<{ holder: string | null; last_run_slot: number | null; last_error: string | null }>()
    ).results[0]

  it("records every run of a batch when one's error text holds a NUL, which PostgreSQL refuses in text", async () => {
    const nul = make(() => {
      // JSON.parse's own message quotes the text it could not read, NUL included.
      throw new SyntaxError(`Unexpected token '\u0000', "\u0000{}" is not valid JSON`)
    })
    const fine = make()
    const slot = T0
    const results = await beat(Jobs.registry([nul, fine]), slot, env(), onTime(slot))
    expect(Object.fromEntries(results.map((r) => [r.job, r.status]))).toEqual({
      [nul.name]: "failed",
      [fine.name]: "ran",
    })
    const stored = await leaseOf(nul.name)
    expect(stored).toMatchObject({ holder: null })
    expect(Number(stored?.last_run_slot)).toBe(slot)
    expect(stored?.last_error).toContain("Unexpected token")
    expect(stored?.last_error).not.toContain("\u0000")
    expect(Number((await leaseOf(fine.name))?.last_run_slot)).toBe(slot)
    // The next slot is its own: no lease left held.
    const next = await beat(Jobs.registry([nul, fine]), slot + MINUTE, env(), onTime(slot + MINUTE))
    expect(next.map((r) => r.reason)).not.toContain("lease held")
  })

  it("gives each skipped slot one history entry with its reason: lease held, slot taken, over capacity", async () => {
    let release = () => {}
    const long = make(
      () =>
        new Promise<void>((resolve) => {
          release = resolve
        }),
      "10 minutes",
    )
    const slot = T0 + HOUR
    const first = beat(Jobs.registry([long]), slot, env(), onTime(slot))
    await new Promise((resolve) => setTimeout(resolve, 30))
    // The next slot finds the lease its run still holds.
    const [held] = await beat(Jobs.registry([long]), slot + MINUTE, env(), onTime(slot + MINUTE))
    expect(held).toMatchObject({ status: "skipped", reason: "lease held" })
    release()
    await first
    // Over capacity: a heartbeat that runs one job, with two due and no overflow queue.
    const pair = [make(), make()]
    const over = await beat(Jobs.registry(pair), slot + 2 * MINUTE, env(), {
      ...onTime(slot + 2 * MINUTE),
      capacity: capacityOfOne(),
    })
    const skipped = over.filter((r) => r.reason === "over capacity")
    expect(skipped).toHaveLength(1)
    const history = await historyOf(long, slot + 10 * MINUTE)
    const marks = new Map(history.today.map((entry) => [entry.slot, entry]))
    expect(marks.get(slot)).toMatchObject({ status: "ran" })
    expect(marks.get(slot + MINUTE)).toMatchObject({ status: "skipped", reason: "lease held" })
    const skippedJob = pair.find((job) => job.name === skipped[0]?.job) as Job
    const pairHistory = await historyOf(skippedJob, slot + 10 * MINUTE)
    expect(pairHistory.today.find((entry) => entry.slot === slot + 2 * MINUTE)).toMatchObject({
      status: "skipped",
      reason: "over capacity",
    })
    // Slot taken: a queue message for a slot delivered after the next heartbeat ran the job's next slot.
    const late = make()
    await beat(Jobs.registry([late]), slot + 4 * MINUTE, env(), onTime(slot + 4 * MINUTE))
    const message = { id: "late", body: { job: late.name, slot: new Date(slot + 3 * MINUTE).toISOString() }, ack() {} }
    const [taken] = await handleMessages(
      Jobs.registry([late]),
      { queue: "slotwise-jobs", messages: [message] } as never,
      env(),
      onTime(slot + 4 * MINUTE),
    )
    expect(taken).toMatchObject({ status: "skipped", reason: "slot taken" })
    const lateHistory = await historyOf(late, slot + 10 * MINUTE)
    expect(lateHistory.today.find((entry) => entry.slot === slot + 3 * MINUTE)).toMatchObject({
      status: "skipped",
      reason: "slot taken",
    })
    // A redelivery of a slot that ran adds nothing: its run is the slot's one entry.
    const again = { ...message, body: { job: late.name, slot: new Date(slot + 4 * MINUTE).toISOString() } }
    await handleMessages(
      Jobs.registry([late]),
      { queue: "q", messages: [again] } as never,
      env(),
      onTime(slot + 4 * MINUTE),
    )
    const ranOnce = (await historyOf(late, slot + 10 * MINUTE)).hours.reduce(
      (n, hour) => n + hour.ran + hour.skipped,
      0,
    )
    expect(ranOnce).toBe(2)
  })
}

/** A capacity that runs one job a heartbeat. */
const capacityOfOne = () => ({
  plan: "custom",
  limits: PLANS.free,
  jobsPerHeartbeat: 1,
  releaseQueries: 5,
  overflowQueue: null,
  overCapacity: "warn" as const,
})
