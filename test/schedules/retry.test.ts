import { evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import type { ScheduleEvent } from "../../src/infra/schedules/index.ts"
import { resetConsumers, type Step, script, seen } from "../support/consumers.ts"
import {
  eventsOf,
  keyOf,
  openStream,
  RETAINED,
  SECOND,
  storedRow,
  T0,
  type TestStream,
  value,
} from "../support/streams.ts"

const HOUR = 3_600 * SECOND
const DUE = T0 + HOUR
/** ADR 0202's pacing between attempts of one occurrence: doubling from 1 s, capped at 60 s. */
const BACKOFF_SECONDS = [1, 2, 4, 8, 16, 32, 60, 60]

async function newestEvent(stream: TestStream, id: string): Promise<ScheduleEvent> {
  const [newest] = await eventsOf(stream, id)
  if (!newest) throw new Error(`no event for "${id}"`)
  return newest
}

/** Alternates throw and retry, so both ways of failing take part in one backoff run. */
const failures = (count: number): Step[] =>
  Array.from({ length: count }, (_, i): Step => (i % 2 === 0 ? "throw" : "retry"))

/** What the scripted consumer's failure leaves as the reason. */
const reasonOf = (step: Step, attempt: number) =>
  step === "throw" ? `Error: scripted throw on attempt ${attempt}` : `scripted retry of attempt ${attempt}`

/**
 * Ticks once per failing attempt at the time the row says it may retry, checking the delay
 * against `BACKOFF_SECONDS` and that one millisecond earlier delivers nothing. Returns when
 * the next attempt is eligible. `between` runs after each attempt (to evict the object).
 */
async function failThroughBackoff(stream: TestStream, id: string, count: number, between = async () => {}) {
  let now = DUE
  for (let attempt = 1; attempt <= count; attempt++) {
    const report = await stream.tick(now)
    expect(report).toMatchObject({ claimed: 1, retried: 1, delivered: 0, failed: 0, stale: 0 })
    await between()

    const row = await storedRow(stream, id)
    const failed = await newestEvent(stream, id)
    expect(failed.type).toBe("schedule/failed")
    expect(failed.at).toBeGreaterThanOrEqual(now)
    expect(row.retry_at).not.toBeNull()
    expect((row.retry_at as number) - failed.at).toBe((BACKOFF_SECONDS[attempt - 1] as number) * SECOND)
    expect(failed.data).toEqual({
      occurrence: 1,
      attempts: attempt,
      retryAt: row.retry_at,
      reason: row.last_error,
    })
    expect(row).toMatchObject({
      state: "scheduled",
      occurrence: 1,
      next_at: DUE,
      attempts: attempt,
      claim_until: null,
      claim_token: null,
    })
    expect(row.last_error).toBe(reasonOf(failures(count)[attempt - 1] as Step, attempt))

    const retryAt = row.retry_at as number
    const early = await stream.tick(retryAt - 1)
    expect(early).toMatchObject({ claimed: 0, retried: 0, delivered: 0, stale: 0, alarm: retryAt })
    expect(seen).toHaveLength(attempt)
    now = retryAt
  }
  return now
}

describe("schedule retries (ADR 0202)", () => {
  beforeEach(() => resetConsumers())

  it("retries one occurrence after 1, 2, 4, 8, 16, 32, 60, 60 s, keeping its key and due time", async () => {
    const stream = openStream("backoff")
    const id = "hourly-report"
    script.set(id, [...failures(8), "ok"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR }))

    const lastRetryAt = await failThroughBackoff(stream, id, 8)
    expect(lastRetryAt).toBeGreaterThanOrEqual(DUE + BACKOFF_SECONDS.reduce((a, b) => a + b, 0) * SECOND)

    const success = await stream.tick(lastRetryAt)
    expect(success).toMatchObject({ claimed: 1, delivered: 1, retried: 0, stale: 0 })

    const deliveries = seen.map(({ delivery }) => delivery)
    expect(deliveries.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    for (const delivery of deliveries) {
      expect(delivery.idempotencyKey).toBe(await keyOf(stream, id, 1))
      expect(delivery.occurrence).toBe(1)
      expect(delivery.dueAt.getTime()).toBe(DUE)
    }

    // Success clears the retry diagnostics and moves onto the original cadence.
    const after = await storedRow(stream, id)
    expect(after).toMatchObject({
      state: "scheduled",
      occurrence: 2,
      next_at: DUE + HOUR,
      attempts: 0,
      last_error: null,
      retry_at: null,
      claim_until: null,
      claim_token: null,
    })
    // Newest first: the success 183 s after the due time is also recorded as late.
    const [late, fired, ...earlier] = await eventsOf(stream, id)
    expect(late).toMatchObject({ type: "schedule/late", data: { occurrence: 1 } })
    expect(late?.data.lateByMs).toBeGreaterThanOrEqual(183 * SECOND)
    expect(fired).toMatchObject({
      type: "schedule/fired",
      data: { occurrence: 1, attempt: 9, nextAt: DUE + HOUR, state: "scheduled" },
    })
    expect(earlier.map((e) => e.type)).toEqual([...Array(8).fill("schedule/failed"), "schedule/set"])

    const next = await stream.tick(DUE + HOUR)
    expect(next).toMatchObject({ claimed: 1, delivered: 1 })
    const second = seen[9]?.delivery
    expect(second).toMatchObject({ occurrence: 2, attempt: 1, idempotencyKey: await keyOf(stream, id, 2) })
    expect(second?.dueAt.getTime()).toBe(DUE + HOUR)
  })

  it("keeps the backoff, key and attempt count when the object is evicted between attempts", async () => {
    const stream = openStream("evicted")
    const id = "evicted-reminder"
    script.set(id, [...failures(8), "ok"])
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }))
    await evictDurableObject(stream.stub)

    const lastRetryAt = await failThroughBackoff(stream, id, 8, () => evictDurableObject(stream.stub))
    await evictDurableObject(stream.stub)
    const success = await stream.tick(lastRetryAt)
    expect(success).toMatchObject({ claimed: 1, delivered: 1, stale: 0 })

    const deliveries = seen.map(({ delivery }) => delivery)
    expect(deliveries.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(new Set(deliveries.map((d) => d.idempotencyKey))).toEqual(new Set([await keyOf(stream, id, 1)]))
    expect(new Set(deliveries.map((d) => d.dueAt.getTime()))).toEqual(new Set([DUE]))
    expect(await storedRow(stream, id)).toMatchObject({
      state: "completed",
      occurrence: 1,
      attempts: 0,
      last_error: null,
      retry_at: null,
      claim_until: null,
    })
    expect(await stream.alarm()).toBe(lastRetryAt + RETAINED)
  })

  it("records each failed attempt with its occurrence, attempts, retry time and reason", async () => {
    const stream = openStream("failed-event")
    const id = "thrower"
    script.set(id, ["throw"])
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }))

    await stream.tick(DUE)
    const row = await storedRow(stream, id)
    const event = await newestEvent(stream, id)
    // The tick's clock starts at the injected time; real milliseconds spent inside it still count.
    expect(event.at - DUE).toBeGreaterThanOrEqual(0)
    expect(event.at - DUE).toBeLessThan(SECOND)
    expect(event).toMatchObject({
      type: "schedule/failed",
      scheduleId: id,
      data: { occurrence: 1, attempts: 1, retryAt: event.at + SECOND, reason: "Error: scripted throw on attempt 1" },
    })
    expect(row).toMatchObject({ retry_at: event.at + SECOND, last_error: "Error: scripted throw on attempt 1" })
    expect(event.data).not.toHaveProperty("terminal")
  })

  it("cuts a failure reason over 1,000 characters to 1,000, in the event and the row", async () => {
    const stream = openStream("long-reason")
    const id = "verbose"
    const reason = `upstream said: ${"x".repeat(3_000)}`
    value(await stream.upsert({ id, consumer: "test.refusing", at: DUE, payload: { reason } }))

    expect(await stream.tick(DUE)).toMatchObject({ claimed: 1, retried: 1 })
    const event = await newestEvent(stream, id)
    const recorded = event.data.reason as string
    expect(event.type).toBe("schedule/failed")
    expect(recorded).toHaveLength(1_000)
    expect(reason.startsWith(recorded.slice(0, 999))).toBe(true)
    expect((await storedRow(stream, id)).last_error).toBe(recorded)

    // A reason of exactly 1,000 characters is kept whole.
    const exact = "y".repeat(1_000)
    const second = "exact"
    value(await stream.upsert({ id: second, consumer: "test.refusing", at: DUE, payload: { reason: exact } }))
    await stream.tick(DUE)
    expect((await newestEvent(stream, second)).data.reason).toBe(exact)
  })

  it("fails a one-shot whose attempts reach maxAttempts, with a terminal event", async () => {
    const stream = openStream("max-once")
    const id = "capped-once"
    script.set(id, ["throw", "retry", "ok"])
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE, maxAttempts: 2 }))

    expect(await stream.tick(DUE)).toMatchObject({ claimed: 1, retried: 1, failed: 0 })
    const retryAt = (await storedRow(stream, id)).retry_at as number
    expect(retryAt - (await newestEvent(stream, id)).at).toBe(SECOND)

    const exhausted = await stream.tick(retryAt)
    expect(exhausted).toMatchObject({ claimed: 1, failed: 1, retried: 0, delivered: 0, alarm: retryAt + RETAINED })
    expect(await storedRow(stream, id)).toMatchObject({
      state: "failed",
      occurrence: 1,
      attempts: 2,
      retry_at: null,
      claim_until: null,
      last_error: "scripted retry of attempt 2",
    })
    const event = await newestEvent(stream, id)
    expect(event).toMatchObject({
      type: "schedule/failed",
      data: { occurrence: 1, attempts: 2, terminal: true, reason: "scripted retry of attempt 2" },
    })
    expect(event.data).not.toHaveProperty("retryAt")
    expect(await stream.alarm()).toBe(retryAt + RETAINED)

    // Failed means stopped: nothing is delivered however late the clock gets.
    expect(await stream.tick(retryAt + HOUR)).toMatchObject({ claimed: 0 })
    expect(seen).toHaveLength(2)
    expect((await eventsOf(stream, id)).some((e) => e.type === "schedule/fired")).toBe(false)
  })

  it("skips the occurrence of a recurring schedule whose attempts reach maxAttempts", async () => {
    const stream = openStream("max-every")
    const id = "capped-hourly"
    script.set(id, ["retry", "throw", "ok"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: HOUR, maxAttempts: 2 }))

    await stream.tick(DUE)
    const retryAt = (await storedRow(stream, id)).retry_at as number
    const skip = await stream.tick(retryAt)
    expect(skip).toMatchObject({ claimed: 1, delivered: 0, failed: 0, stale: 0 })

    const row = await storedRow(stream, id)
    expect(row).toMatchObject({
      state: "scheduled",
      occurrence: 2,
      next_at: DUE + HOUR,
      attempts: 0,
      retry_at: null,
      claim_until: null,
      last_error: "Error: scripted throw on attempt 2",
    })
    const event = await newestEvent(stream, id)
    expect(event).toMatchObject({
      type: "schedule/failed",
      data: { occurrence: 1, attempts: 2, skipped: true, nextAt: DUE + HOUR },
    })
    expect(event.data).not.toHaveProperty("terminal")
    expect(event.data).not.toHaveProperty("retryAt")
    expect(await stream.alarm()).toBe(DUE + HOUR)
    expect((await eventsOf(stream, id)).some((e) => e.type === "schedule/fired")).toBe(false)

    // The next occurrence starts its own attempts, under its own key.
    expect(await stream.tick(DUE + HOUR)).toMatchObject({ claimed: 1, delivered: 1 })
    expect(seen.map(({ delivery }) => [delivery.occurrence, delivery.attempt])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ])
    expect(seen[2]?.delivery.idempotencyKey).toBe(await keyOf(stream, id, 2))
    const fired = (await eventsOf(stream, id)).filter((e) => e.type === "schedule/fired")
    expect(fired.map((e) => e.data.occurrence)).toEqual([2])
  })
})

describe("a consumer missing at delivery (a rolling deploy)", () => {
  beforeEach(() => resetConsumers())

  /** Points the stored row at a consumer this deployment does not declare, as an older or newer deploy may. */
  const setConsumer = (stream: TestStream, id: string, consumer: string) =>
    stream.inside((_, state) => {
      state.storage.sql.exec("UPDATE schedules SET consumer = ? WHERE id = ?", consumer, id)
    })

  it("retries the occurrence on the normal backoff, and delivers it once the consumer is back", async () => {
    const stream = openStream("undeclared")
    const id = "during-deploy"
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }))
    await setConsumer(stream, id, "billing.renamed")

    expect(await stream.tick(DUE)).toMatchObject({ claimed: 1, retried: 1, failed: 0 })
    expect(await storedRow(stream, id)).toMatchObject({
      state: "scheduled",
      attempts: 1,
      retry_at: DUE + SECOND,
      last_error: 'unknown consumer "billing.renamed"',
    })
    expect(await newestEvent(stream, id)).toMatchObject({
      type: "schedule/failed",
      data: { occurrence: 1, attempts: 1, retryAt: DUE + SECOND, reason: 'unknown consumer "billing.renamed"' },
    })
    expect(await stream.tick(DUE + SECOND)).toMatchObject({ retried: 1 })
    expect((await storedRow(stream, id)).retry_at).toBe(DUE + 3 * SECOND)

    await setConsumer(stream, id, "test.scripted")
    expect(await stream.tick(DUE + 3 * SECOND)).toMatchObject({ delivered: 1 })
    expect(seen.map(({ delivery }) => [delivery.idempotencyKey, delivery.attempt])).toEqual([
      [await keyOf(stream, id, 1), 3],
    ])
    expect(await storedRow(stream, id)).toMatchObject({ state: "completed", occurrence: 1 })
  })

  it("counts those attempts toward maxAttempts", async () => {
    const stream = openStream("undeclared-capped")
    const id = "capped"
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE, maxAttempts: 2 }))
    await setConsumer(stream, id, "gone")
    expect(await stream.tick(DUE)).toMatchObject({ retried: 1 })
    expect(await stream.tick(DUE + SECOND)).toMatchObject({ failed: 1 })
    expect(await storedRow(stream, id)).toMatchObject({
      state: "failed",
      attempts: 2,
      last_error: 'unknown consumer "gone"',
    })
    expect(seen).toHaveLength(0)
  })
})
