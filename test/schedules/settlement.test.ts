import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test"
import { beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { ScheduleEvent } from "../../src/infra/schedules/index.ts"
import { resetConsumers, script, seen, waiting } from "../support/consumers.ts"
import { storedRows } from "../support/stored.ts"
import {
  eventsOf,
  keyOf,
  openStream,
  RETAINED,
  SECOND,
  storedRow,
  T0,
  type TestStream,
  type TestStub,
  tickAt,
  until,
  value,
} from "../support/streams.ts"

const HOUR = 3_600 * SECOND
/** T0 is 08:00 UTC: both an hourly `every` and a 09:00 cron are first due an hour later. */
const DUE = T0 + HOUR
const DAY = 24 * HOUR
/** The claim of test.scripted and test.durable: the default 30 s deadline plus the 30 s margin. */
const LEASE = 60 * SECOND

/** What these tests read and drive on a stream; a reconnected stream offers the same. */
type StreamHandle = Pick<TestStream, "name" | "tick" | "row" | "events">

const typesOf = async (stream: TestStream, id: string) => (await eventsOf(stream, id)).map((e) => e.type).reverse()

/** The `count`th delivery parked on a "wait" step, once the tick in flight has reached it. */
async function parkedDelivery(count = 1) {
  await until(() => waiting.length === count, `${count} delivery(ies) to wait for an answer`)
  return waiting[count - 1] as (typeof waiting)[number]
}

/**
 * Answers a parked delivery from inside the stream's object: a promise the object awaits
 * cannot be settled from another object's I/O context (the test runner's).
 */
const answerInside = (stream: TestStream, settle: () => void) => stream.inside(() => settle())

/** Lets a late answer run through whatever is still listening to it. */
const settleDown = () => new Promise((resolve) => setTimeout(resolve, 50))

describe("terminal failure", () => {
  beforeEach(() => resetConsumers())

  it.each([
    { kind: "every", timing: { every: HOUR }, nextAfterResume: DUE + 3 * HOUR },
    { kind: "cron", timing: { cron: "0 9 * * *" }, nextAfterResume: DUE + DAY },
  ])("stops a recurring $kind schedule in failed until it is resumed", async ({ timing, nextAfterResume }) => {
    const stream = openStream("terminal")
    const id = "stops-for-good"
    script.set(id, ["terminal"])
    const created = value(await stream.upsert({ id, consumer: "test.scripted", ...timing }))
    expect(created.nextAt).toBe(DUE)

    const report = await stream.tick(DUE)
    expect(report).toMatchObject({
      claimed: 1,
      failed: 1,
      retried: 0,
      delivered: 0,
      stale: 0,
      alarm: DUE + RETAINED,
    })
    expect(await storedRow(stream, id)).toMatchObject({
      state: "failed",
      occurrence: 1,
      next_at: DUE,
      retry_at: null,
      claim_until: null,
      claim_token: null,
      attempts: 1,
      last_error: "scripted terminal failure",
    })
    const [failed] = await eventsOf(stream, id)
    expect(failed).toMatchObject({
      type: "schedule/failed",
      data: { occurrence: 1, attempts: 1, terminal: true, reason: "scripted terminal failure" },
    })
    expect(failed?.data).not.toHaveProperty("retryAt")
    expect(await stream.alarm()).toBe(DUE + RETAINED)

    // Stopped means stopped, recurring or not: later ticks deliver nothing.
    const later = DUE + 2 * HOUR
    expect(await stream.tick(later)).toMatchObject({ claimed: 0 })
    expect(seen).toHaveLength(1)

    const resumed = value(await stream.resume(id, later))
    expect(resumed).toMatchObject({ state: "scheduled", occurrence: 1, attempts: 0, lastError: null, nextAt: DUE })
    expect(await storedRow(stream, id)).toMatchObject({ state: "scheduled", attempts: 0, retry_at: null })

    // The same occurrence, under the same key, is delivered again as a first attempt.
    expect(await stream.tick(later)).toMatchObject({ claimed: 1, delivered: 1 })
    expect(seen.map(({ delivery }) => [delivery.idempotencyKey, delivery.attempt, delivery.dueAt.getTime()])).toEqual([
      [await keyOf(stream, id, 1), 1, DUE],
      [await keyOf(stream, id, 1), 1, DUE],
    ])
    expect(await storedRow(stream, id)).toMatchObject({ state: "scheduled", occurrence: 2, next_at: nextAfterResume })
  })
})

describe("settlement behind the fence", () => {
  beforeEach(() => resetConsumers())

  it("lets a cancellation made during a delivery stand", async () => {
    const stream = openStream("cancel-in-flight")
    const id = "cancelled-mid-flight"
    script.set(id, ["wait"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const pending = stream.tick(DUE)
    const parked = await parkedDelivery()
    const cancelled = value(await stream.cancel(id, DUE + 10))
    expect(cancelled.state).toBe("cancelled")
    const before = await stream.snapshot()

    await answerInside(stream, () => parked.answer())
    const report = await pending
    expect(report).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 0, stale: 1 })
    expect(await stream.snapshot()).toBe(before)
    expect(await storedRow(stream, id)).toMatchObject({ state: "cancelled", occurrence: 1, claim_token: null })
    expect(await typesOf(stream, id)).toEqual(["schedule/set", "schedule/cancelled"])
  })

  it("advances from the row as stored now: an every schedule retimed to a one-shot at its in-flight due time completes", async () => {
    const stream = openStream("retimed-in-flight")
    const id = "becomes-one-shot"
    script.set(id, ["wait"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const pending = stream.tick(DUE)
    const parked = await parkedDelivery()
    // The same due time under a new timing: the claim's fence still holds, and its attempt stands.
    const retimed = value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }, DUE + 10))
    expect(retimed).toMatchObject({ timing: { kind: "at", atMs: DUE }, occurrence: 1, nextAt: DUE, attempts: 1 })

    await answerInside(stream, () => parked.answer())
    expect(await pending).toMatchObject({ claimed: 1, delivered: 1, stale: 0 })
    expect(await storedRow(stream, id)).toMatchObject({ state: "completed", occurrence: 1, next_at: DUE, attempts: 0 })
    const [fired] = await eventsOf(stream, id)
    expect(fired).toMatchObject({ type: "schedule/fired", data: { occurrence: 1, attempt: 1, state: "completed" } })

    // A one-shot is delivered once: never again under a second key.
    expect(await stream.tick(DUE + 2 * HOUR)).toMatchObject({ claimed: 0 })
    expect(seen.map((s) => s.delivery.idempotencyKey)).toEqual([await keyOf(stream, id, 1)])
  })

  it("applies a maxAttempts lowered while the attempt was out", async () => {
    const stream = openStream("capped-in-flight")
    const id = "capped-meanwhile"
    script.set(id, ["wait"])
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }))
    const pending = stream.tick(DUE)
    const parked = await parkedDelivery()
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE, maxAttempts: 1 }, DUE + 10))

    await answerInside(stream, () => parked.fail(new Error("no luck")))
    expect(await pending).toMatchObject({ claimed: 1, failed: 1, retried: 0 })
    expect(await storedRow(stream, id)).toMatchObject({ state: "failed", attempts: 1, retry_at: null })
  })

  it("aborts a hanging consumer at its deadline and records a retry", async () => {
    const stream = openStream("hang")
    const id = "hangs"
    script.set(id, ["hang"])
    value(await stream.upsert({ id, consumer: "test.quick", at: DUE }))

    const report = await stream.tick(DUE)
    expect(report).toMatchObject({ claimed: 1, retried: 1, delivered: 0, stale: 0 })
    expect(seen).toHaveLength(1)
    expect(seen[0]?.aborted()).toBe(true)

    const row = await storedRow(stream, id)
    const [failed] = await eventsOf(stream, id)
    expect(failed).toMatchObject({ type: "schedule/failed", data: { occurrence: 1, attempts: 1 } })
    expect(failed?.data.reason).toMatch(/deadline/)
    expect(failed?.data.retryAt).toBe(row.retry_at)
    expect(row).toMatchObject({ state: "scheduled", attempts: 1, claim_until: null, last_error: failed?.data.reason })
    // The stream's clock stays at the tick's time throughout; the deadline's 300 ms are real time.
    expect((row.retry_at as number) - (failed as ScheduleEvent).at).toBe(SECOND)
    expect(failed?.at).toBe(DUE)
  })

  it("ignores a consumer's answer that comes after its deadline", async () => {
    const stream = openStream("late-answer")
    const id = "answers-late"
    script.set(id, ["wait"])
    value(await stream.upsert({ id, consumer: "test.quick", at: DUE }))

    const report = await stream.tick(DUE)
    expect(report).toMatchObject({ claimed: 1, retried: 1, delivered: 0, stale: 0 })
    expect(seen[0]?.aborted()).toBe(true)
    const before = await stream.snapshot()
    expect(await storedRow(stream, id)).toMatchObject({ state: "scheduled", attempts: 1 })

    const parked = await parkedDelivery()
    await answerInside(stream, () => parked.answer())
    await settleDown()
    expect(await stream.snapshot()).toBe(before)
  })

  it("refuses a late success once an expired lease was re-claimed and delivered", async () => {
    const stream = openStream("lease-lost")
    const id = "slow-first-try"
    script.set(id, ["wait", "ok"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const first = stream.tick(DUE)
    const parked = await parkedDelivery()
    const claimed = await storedRow(stream, id)
    expect(claimed.claim_until as number).toBeGreaterThanOrEqual(DUE + LEASE)
    expect(claimed.claim_until as number).toBeLessThan(DUE + LEASE + SECOND)

    const second = await stream.tick(DUE + LEASE + SECOND)
    expect(second).toMatchObject({ claimed: 1, delivered: 1, stale: 0 })
    expect(seen.map(({ delivery }) => [delivery.idempotencyKey, delivery.attempt])).toEqual([
      [await keyOf(stream, id, 1), 1],
      [await keyOf(stream, id, 1), 2],
    ])
    expect(await storedRow(stream, id)).toMatchObject({ state: "scheduled", occurrence: 2, attempts: 0 })
    const before = await stream.snapshot()

    await answerInside(stream, () => parked.answer())
    expect(await first).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 0, stale: 1 })
    expect(await stream.snapshot()).toBe(before)
    const fired = (await eventsOf(stream, id)).filter((e) => e.type === "schedule/fired")
    expect(fired.map((e) => e.data)).toEqual([expect.objectContaining({ occurrence: 1, attempt: 2 })])
  })

  it("refuses a late failure once an expired lease was re-claimed and delivered", async () => {
    const stream = openStream("lease-lost-failure")
    const id = "slow-failing-try"
    script.set(id, ["wait", "ok"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const first = stream.tick(DUE)
    const parked = await parkedDelivery()
    expect(await stream.tick(DUE + LEASE + SECOND)).toMatchObject({ claimed: 1, delivered: 1 })
    const before = await stream.snapshot()

    await answerInside(stream, () => parked.fail(new Error("the first try gave up late")))
    expect(await first).toMatchObject({ claimed: 1, retried: 0, failed: 0, stale: 1 })
    expect(await stream.snapshot()).toBe(before)
    expect(await storedRow(stream, id)).toMatchObject({ occurrence: 2, retry_at: null, last_error: null })
    expect((await eventsOf(stream, id)).some((e) => e.type === "schedule/failed")).toBe(false)
  })

  it("refuses a late success while a newer claim of the same occurrence is still in flight", async () => {
    const stream = openStream("lease-lost-in-flight")
    const id = "two-claims"
    script.set(id, ["wait", "wait"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const first = stream.tick(DUE)
    const firstParked = await parkedDelivery(1)
    const second = stream.tick(DUE + LEASE + SECOND)
    const secondParked = await parkedDelivery(2)
    const reclaimed = await storedRow(stream, id)
    expect(reclaimed).toMatchObject({ occurrence: 1, next_at: DUE, attempts: 2 })
    const before = await stream.snapshot()

    // Same occurrence, same due time, a lease that is live on the first tick's clock: only the token differs.
    await answerInside(stream, () => firstParked.answer())
    expect(await first).toMatchObject({ claimed: 1, delivered: 0, stale: 1 })
    expect(await stream.snapshot()).toBe(before)

    await answerInside(stream, () => secondParked.answer())
    expect(await second).toMatchObject({ claimed: 1, delivered: 1, stale: 0 })
    expect(await storedRow(stream, id)).toMatchObject({ occurrence: 2, attempts: 0, claim_token: null })
    const fired = (await eventsOf(stream, id)).filter((e) => e.type === "schedule/fired")
    expect(fired.map((e) => e.data)).toEqual([expect.objectContaining({ occurrence: 1, attempt: 2 })])
  })

  it("refuses a result for a due time that an upsert moved during the delivery", async () => {
    const stream = openStream("retimed-in-flight")
    const id = "retimed"
    script.set(id, ["wait"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const pending = stream.tick(DUE)
    const parked = await parkedDelivery()
    const retimed = value(await stream.upsert({ id, consumer: "test.scripted", every: 2 * HOUR }, DUE + 10))
    expect(retimed).toMatchObject({ occurrence: 1, nextAt: DUE + 10 + 2 * HOUR })
    const before = await stream.snapshot()

    await answerInside(stream, () => parked.answer())
    expect(await pending).toMatchObject({ claimed: 1, delivered: 0, stale: 1 })
    expect(await stream.snapshot()).toBe(before)
    expect(await typesOf(stream, id)).toEqual(["schedule/set", "schedule/set"])
  })

  it("delivers a due row once when two ticks run over it", async () => {
    const stream = openStream("two-ticks")
    const id = "due-once"
    script.set(id, ["wait"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const first = stream.tick(DUE)
    const parked = await parkedDelivery()
    const second = await stream.tick(DUE)
    expect(second).toMatchObject({ claimed: 0, delivered: 0, stale: 0 })
    expect(seen).toHaveLength(1)

    // The claim held by the first tick is when the row may next be looked at.
    const held = await storedRow(stream, id)
    expect(held.claim_until).not.toBeNull()
    expect(await stream.alarm()).toBe(held.claim_until)
    expect(second.alarm).toBe(held.claim_until)

    await answerInside(stream, () => parked.answer())
    expect(await first).toMatchObject({ claimed: 1, delivered: 1, stale: 0 })
    expect(seen).toHaveLength(1)
    expect(await stream.alarm()).toBe(DUE + HOUR)
    expect(await storedRow(stream, id)).toMatchObject({ occurrence: 2, claim_until: null, claim_token: null })
  })
})

/**
 * A new stub to the same stream: after abortAllDurableObjects() every existing stub fails
 * for good, as a stub to a reset object does in production.
 */
function reconnect(stream: TestStream): StreamHandle {
  const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(stream.name))
  const rpc = stub as unknown as TestStub
  return {
    name: stream.name,
    tick: (now) => tickAt(rpc, now),
    events: (options = {}) => rpc.events(stream.name, options),
    row: (id) => runInDurableObject(stub, (_, state) => storedRows(state.storage.sql).find((row) => row.id === id)),
  }
}

describe("a crash during a delivery", () => {
  beforeAll(async () => {
    await env.DB.exec(
      "CREATE TABLE IF NOT EXISTS test_deliveries (key TEXT NOT NULL, attempt INTEGER NOT NULL, PRIMARY KEY (key, attempt))",
    )
  })
  beforeEach(() => resetConsumers())

  const admitted = (key: string) =>
    env.DB.prepare("SELECT key, attempt FROM test_deliveries WHERE key = ? ORDER BY attempt")
      .bind(key)
      .all<{ key: string; attempt: number }>()

  it("delivers the same key again after the lease, and the consumer sees both attempts", async () => {
    const stream = openStream("crash")
    const id = "survives-a-crash"
    script.set(id, ["hang", "ok"])
    value(await stream.upsert({ id, consumer: "test.durable", at: DUE }))
    const key = await keyOf(stream, id, 1)

    const interrupted = stream.tick(DUE).then(
      () => "finished",
      () => "aborted",
    )
    let firstAdmitted = false
    const deadline = Date.now() + 5_000
    while (!firstAdmitted) {
      if (Date.now() > deadline) throw new Error("timed out waiting for the first admission in D1")
      firstAdmitted = (await admitted(key)).results.length === 1
      if (!firstAdmitted) await new Promise((resolve) => setTimeout(resolve, 10))
    }

    await abortAllDurableObjects()
    expect(await interrupted).toBe("aborted")
    const restarted = reconnect(stream)
    expect(await storedRow(restarted, id)).toMatchObject({
      state: "scheduled",
      attempts: 1,
      claim_token: expect.any(String),
    })

    // Before the lease ends nothing is due; after it, the same occurrence goes out again.
    expect(await restarted.tick(DUE + LEASE - SECOND)).toMatchObject({ claimed: 0 })
    const retried = await restarted.tick(DUE + LEASE + SECOND)
    expect(retried).toMatchObject({ claimed: 1, delivered: 1, stale: 0 })

    expect((await admitted(key)).results).toEqual([
      { key, attempt: 1 },
      { key, attempt: 2 },
    ])
    expect(seen.map(({ delivery }) => [delivery.idempotencyKey, delivery.attempt])).toEqual([
      [key, 1],
      [key, 2],
    ])
    expect(await storedRow(restarted, id)).toMatchObject({
      state: "completed",
      occurrence: 1,
      attempts: 0,
      claim_until: null,
      claim_token: null,
    })
    const fired = (await eventsOf(restarted, id)).filter((e) => e.type === "schedule/fired")
    expect(fired.map((e) => e.data)).toEqual([
      expect.objectContaining({ occurrence: 1, attempt: 2, state: "completed" }),
    ])
  })
})
