import { env, evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { ScheduleDefinitionError, Schedules } from "../../src/infra/index.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { stubOf, T0, tickAt } from "../support/streams.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
let streams = 0

/** A fresh stream through the public client, its object's clock set to `now`. */
async function clientAt(now: number) {
  const name = `window-${++streams}`
  const stub = stubOf(name)
  await stub.setNow(now)
  return { name, stub, stream: Schedules.stream(env.SCHEDULES, name) }
}

const deliveredTo = (stream: string, id: string) =>
  seen
    .filter(({ delivery }) => delivery.stream === stream && delivery.scheduleId === id)
    .map(({ delivery }) => delivery)

beforeEach(() => resetConsumers())

describe("a window: startAt and endAt", () => {
  it("delivers nothing before the start, keeps the cadence through a restart mid-window, and completes after the last occurrence at or before the end", async () => {
    const { name, stub, stream } = await clientAt(T0)
    const view = await stream.upsert({
      id: "w",
      consumer: "test.scripted",
      every: "1 hour",
      startAt: new Date(T0 + 2 * HOUR),
      endAt: new Date(T0 + 5 * HOUR + 30 * MINUTE).toISOString(),
    })
    expect(view).toMatchObject({ nextAt: T0 + 2 * HOUR, cadenceAt: T0 + 2 * HOUR, startAt: T0 + 2 * HOUR })
    expect(view.endAt).toBe(T0 + 5 * HOUR + 30 * MINUTE)
    expect(await tickAt(stub, T0 + 2 * HOUR - 1)).toMatchObject({ claimed: 0 })
    expect(await tickAt(stub, T0 + 2 * HOUR)).toMatchObject({ delivered: 1 })
    expect(await tickAt(stub, T0 + 3 * HOUR)).toMatchObject({ delivered: 1 })
    // The object restarts mid-window: what it knows is in its storage.
    await evictDurableObject(stub as unknown as DurableObjectStub)
    expect(await tickAt(stub, T0 + 3 * HOUR + 1)).toMatchObject({ claimed: 0 })
    expect(await tickAt(stub, T0 + 4 * HOUR)).toMatchObject({ delivered: 1 })
    expect(await tickAt(stub, T0 + 5 * HOUR)).toMatchObject({ delivered: 1 })
    const done = await stream.get("w")
    expect(done).toMatchObject({ state: "completed", occurrence: 4, delivered: 4 })
    expect(await tickAt(stub, T0 + 6 * HOUR)).toMatchObject({ claimed: 0 })
    const deliveries = deliveredTo(name, "w")
    expect(deliveries.map((d) => d.dueAt.getTime())).toEqual([2, 3, 4, 5].map((h) => T0 + h * HOUR))
    expect(deliveries.map((d) => d.occurrence)).toEqual([1, 2, 3, 4])
  })

  it("starts a cron at or after startAt, in its zone", async () => {
    const { stream } = await clientAt(T0)
    // T0 is Monday 2100-01-04 08:00 UTC; 09:00 in Berlin is 08:00 UTC.
    const view = await stream.upsert({
      id: "c",
      consumer: "test.scripted",
      cron: "0 9 * * *",
      timezone: "Europe/Berlin",
      startAt: "2100-01-06T00:00:00Z",
      endAt: "2100-01-08T23:00:00Z",
    })
    expect(view.nextAt).toBe(Date.UTC(2100, 0, 6, 8, 0))
  })

  it("refuses a window that does not fit its timing, naming the field, writing nothing", async () => {
    const { stream } = await clientAt(T0)
    const refused = (definition: Record<string, unknown>) =>
      stream.upsert({ id: "bad", consumer: "test.scripted", ...definition } as never).catch((error) => error)
    const endFirst = await refused({ every: "1 hour", startAt: T0 + HOUR, endAt: T0 })
    expect(endFirst).toBeInstanceOf(ScheduleDefinitionError)
    expect(endFirst).toMatchObject({ field: "endAt", message: expect.stringMatching(/^endAt is before startAt/) })
    expect(await refused({ at: T0 + HOUR, startAt: T0 })).toMatchObject({ field: "startAt" })
    expect(await refused({ after: "1 hour", endAt: T0 + 2 * HOUR })).toMatchObject({ field: "endAt" })
    expect(await refused({ every: "1 hour", startAt: "next tuesday" })).toMatchObject({ field: "startAt" })
    expect(await refused({ every: "1 hour", endAt: "2100-02-30T00:00:00Z" })).toMatchObject({ field: "endAt" })
    const noTime = await refused({ cron: "0 9 * * *", startAt: T0 + 2 * HOUR, endAt: T0 + 3 * HOUR })
    expect(noTime).toMatchObject({ field: "endAt" })
    expect(await stream.get("bad")).toBeUndefined()
  })

  it("completes at once when its window has no occurrence left, and says so in its view", async () => {
    const { stream } = await clientAt(T0)
    const view = await stream.upsert({ id: "past", consumer: "test.scripted", every: "1 hour", endAt: T0 - HOUR })
    expect(view).toMatchObject({ state: "completed", delivered: 0 })
    // The same definition again changes nothing.
    const again = await stream.upsert({ id: "past", consumer: "test.scripted", every: "1 hour", endAt: T0 - HOUR })
    expect(again.updatedAt).toBe(view.updatedAt)
  })
})

describe("a count: times", () => {
  it("counts a retried occurrence once, and keeps the count through a timing change and a restart", async () => {
    const { name, stub, stream } = await clientAt(T0)
    await stream.upsert({ id: "n", consumer: "test.scripted", every: "1 minute", times: 3 })
    script.set("n", ["retry", "ok", "ok", "ok"])
    expect(await tickAt(stub, T0 + MINUTE)).toMatchObject({ retried: 1 })
    expect(await stream.get("n")).toMatchObject({ occurrence: 1, delivered: 0, attempts: 1 })
    expect(await tickAt(stub, T0 + MINUTE + 1_000)).toMatchObject({ delivered: 1 })
    const [first, retried] = deliveredTo(name, "n")
    // The retry is the same occurrence, under the same key: it counts once.
    expect(retried?.idempotencyKey).toBe(first?.idempotencyKey)
    expect(await stream.get("n")).toMatchObject({ occurrence: 2, delivered: 1, times: 3 })
    // A timing change keeps the count.
    const retimed = await stream.upsert({ id: "n", consumer: "test.scripted", every: "2 minutes", times: 3 })
    expect(retimed).toMatchObject({ delivered: 1, occurrence: 2 })
    await evictDurableObject(stub as unknown as DurableObjectStub)
    expect(await tickAt(stub, retimed.nextAt)).toMatchObject({ delivered: 1 })
    const second = await stream.get("n")
    expect(second).toMatchObject({ state: "scheduled", delivered: 2 })
    expect(await tickAt(stub, second?.nextAt as number)).toMatchObject({ delivered: 1 })
    expect(await stream.get("n")).toMatchObject({ state: "completed", delivered: 3, occurrence: 3 })
    expect(await tickAt(stub, (second?.nextAt as number) + HOUR)).toMatchObject({ claimed: 0 })
    expect(deliveredTo(name, "n").map((d) => d.occurrence)).toEqual([1, 1, 2, 3])
    // Raising the count starts it again at the next occurrence, with a key not delivered before.
    const raised = await stream.upsert({ id: "n", consumer: "test.scripted", every: "2 minutes", times: 4 })
    expect(raised).toMatchObject({ state: "scheduled", occurrence: 4, delivered: 3 })
  })

  it("completes when an upsert lowers the count to what was delivered or below", async () => {
    const { stub, stream } = await clientAt(T0)
    await stream.upsert({ id: "low", consumer: "test.scripted", every: "1 minute", times: 5 })
    await tickAt(stub, T0 + MINUTE)
    await tickAt(stub, T0 + 2 * MINUTE)
    expect(await stream.get("low")).toMatchObject({ delivered: 2, state: "scheduled" })
    const lowered = await stream.upsert({ id: "low", consumer: "test.scripted", every: "1 minute", times: 1 })
    expect(lowered).toMatchObject({ state: "completed", delivered: 2, times: 1 })
    expect(await tickAt(stub, T0 + 10 * MINUTE)).toMatchObject({ claimed: 0 })
    const [set] = await stream.events({ scheduleId: "low", limit: 1 })
    expect(set).toMatchObject({ type: "schedule/set", data: { cause: "completed", state: "completed" } })
  })

  it("refuses a count that is not a positive integer, or on a one-shot, naming the field", async () => {
    const { stream } = await clientAt(T0)
    for (const times of [0, -1, 1.5, "3", 1_000_001]) {
      const error = await stream
        .upsert({ id: "t", consumer: "test.scripted", every: "1 hour", times: times as number })
        .catch((e) => e)
      expect(error).toMatchObject({ name: "ScheduleDefinitionError", field: "times" })
    }
    const oneShot = await stream.upsert({ id: "t", consumer: "test.scripted", at: T0 + HOUR, times: 2 }).catch((e) => e)
    expect(oneShot).toMatchObject({ field: "times" })
  })
})
