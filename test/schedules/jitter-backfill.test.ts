import { env, evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { ScheduleDefinitionError, ScheduleStateError, Schedules } from "../../src/infra/index.ts"
import { jitterOffset } from "../../src/infra/schedules/stream/jitter.ts"
import { BATCH_SIZE } from "../../src/infra/schedules/stream/tick.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { openStream, stubOf, T0, tickAt } from "../support/streams.ts"

const SECOND = 1_000
const MINUTE = 60_000
const HOUR = 60 * MINUTE
let streams = 0

async function clientAt(now: number, prefix = "jb") {
  const name = `${prefix}-${++streams}`
  const stub = stubOf(name)
  await stub.setNow(now)
  return { name, stub, stream: Schedules.stream(env.SCHEDULES, name) }
}

const deliveredTo = (stream: string, id?: string) =>
  seen
    .filter(({ delivery }) => delivery.stream === stream && (id === undefined || delivery.scheduleId === id))
    .map(({ delivery }) => delivery)

beforeEach(() => resetConsumers())

describe("jitter", () => {
  it("delivers each occurrence at its time plus an offset from its key: the same after a restart, the cadence unmoved", async () => {
    const { name, stub, stream } = await clientAt(T0)
    const view = await stream.upsert({ id: "digest", consumer: "test.scripted", every: "1 hour", jitter: "30 minutes" })
    const offset = view.nextAt - view.cadenceAt
    expect(view).toMatchObject({ cadenceAt: T0 + HOUR, jitterMs: 30 * MINUTE })
    expect(offset).toBe(jitterOffset(view.idempotencyKey, 30 * MINUTE))
    expect(offset).toBeGreaterThanOrEqual(0)
    expect(offset).toBeLessThanOrEqual(30 * MINUTE)
    await evictDurableObject(stub as unknown as DurableObjectStub)
    await stub.setNow(T0)
    expect(await stream.get("digest")).toMatchObject({ nextAt: view.nextAt, cadenceAt: view.cadenceAt })
    if (offset > 0) expect(await tickAt(stub, view.cadenceAt)).toMatchObject({ claimed: 0 })
    // Lateness counts from the jittered time.
    expect(await tickAt(stub, view.nextAt + 700)).toMatchObject({ delivered: 1 })
    const [first] = deliveredTo(name, "digest")
    expect(first).toMatchObject({ lateByMs: 700, occurrence: 1 })
    expect(first?.dueAt.getTime()).toBe(view.nextAt)
    const next = await stream.get("digest")
    expect(next?.cadenceAt).toBe(T0 + 2 * HOUR)
    expect((next?.nextAt as number) - (next?.cadenceAt as number)).toBe(
      jitterOffset(next?.idempotencyKey as string, 30 * MINUTE),
    )
    // Ten more occurrences: each on the hour's cadence, whatever its offset.
    for (let i = 0; i < 10; i++) {
      const due = await stream.get("digest")
      await tickAt(stub, due?.nextAt as number)
    }
    const after = await stream.get("digest")
    expect(after?.cadenceAt).toBe(T0 + 12 * HOUR)
    expect(deliveredTo(name, "digest").map((d) => d.occurrence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
  })

  it("spreads one id over many streams (a tenant each) instead of the same second", async () => {
    const dues = new Set<number>()
    for (let i = 0; i < 12; i++) {
      const { stream } = await clientAt(T0, "jitter-tenant")
      const view = await stream.upsert({
        id: "digest",
        consumer: "test.scripted",
        every: "1 hour",
        jitter: "10 minutes",
      })
      dues.add(view.nextAt)
    }
    expect(dues.size).toBeGreaterThan(8)
  })

  it("refuses a jitter that is not a duration, is over a day, or reaches the next occurrence, naming the field", async () => {
    const { stream } = await clientAt(T0)
    const refused = (definition: Record<string, unknown>) =>
      stream.upsert({ id: "j", consumer: "test.scripted", ...definition } as never).catch((error) => error)
    expect(await refused({ every: "1 hour", jitter: "soon" })).toMatchObject({ field: "jitter" })
    expect(await refused({ every: "1 hour", jitter: "1 hour" })).toMatchObject({ field: "jitter" })
    expect(await refused({ at: T0 + HOUR, jitter: "2 days" })).toMatchObject({ field: "jitter" })
    expect(await refused({ cron: "*/5 * * * *", jitter: "5 minutes" })).toBeInstanceOf(ScheduleDefinitionError)
    expect(
      (await stream.upsert({ id: "j", consumer: "test.scripted", cron: "*/5 * * * *", jitter: 299_999 })).jitterMs,
    ).toBe(299_999)
  })
})

describe("backfill", () => {
  it("delivers a past range's occurrences again, each under a key of its own, beside the live ones", async () => {
    const { name, stub, stream } = await clientAt(T0)
    await stream.upsert({ id: "h", consumer: "test.scripted", every: "1 hour", payload: { team: 9 } })
    for (let h = 1; h <= 5; h++) await tickAt(stub, T0 + h * HOUR)
    const live = deliveredTo(name, "h")
    expect(live).toHaveLength(5)
    await stub.setNow(T0 + 5 * HOUR + MINUTE)
    const preview = await stream.backfill("h", { from: T0 + 2 * HOUR, to: new Date(T0 + 4 * HOUR), dryRun: true })
    expect(preview.backfill).toMatchObject({
      count: 3,
      firstAt: T0 + 2 * HOUR,
      lastAt: T0 + 4 * HOUR,
      dryRun: true,
      ids: [],
    })
    expect((await stream.list()).schedules).toHaveLength(1)
    const { backfill, schedule } = await stream.backfill("h", {
      from: new Date(T0 + 2 * HOUR).toISOString(),
      to: T0 + 4 * HOUR,
    })
    expect(schedule).toMatchObject({ id: "h", occurrence: 6, delivered: 5 })
    expect(backfill.ids).toEqual([2, 3, 4].map((h) => `h~backfill-1-${T0 + h * HOUR}`))
    const created = await stream.get(backfill.ids[0] as string)
    expect(created).toMatchObject({
      backfillOf: "h",
      state: "scheduled",
      consumer: "test.scripted",
      payload: { team: 9 },
    })
    expect(await tickAt(stub, T0 + 5 * HOUR + MINUTE)).toMatchObject({ delivered: 3 })
    const again = deliveredTo(name).slice(live.length)
    expect(again.map((d) => d.dueAt.getTime())).toEqual([2, 3, 4].map((h) => T0 + h * HOUR))
    const liveKeys = new Set(live.map((d) => d.idempotencyKey))
    for (const delivery of again) {
      expect(liveKeys.has(delivery.idempotencyKey)).toBe(false)
      expect(delivery.idempotencyKey).toMatch(new RegExp(`^schedule:${name}/h~backfill-1-\\d+@[0-9a-f]{12}:1$`))
      expect(delivery.payload).toEqual({ team: 9 })
    }
    // The live schedule goes on untouched; a second backfill of the same range is a new run, with new keys.
    expect(await stream.get("h")).toMatchObject({ occurrence: 6, delivered: 5, nextAt: T0 + 6 * HOUR })
    const second = await stream.backfill("h", { from: T0 + 2 * HOUR, to: T0 + 2 * HOUR })
    expect(second.backfill.ids).toEqual([`h~backfill-2-${T0 + 2 * HOUR}`])
    const events = await stream.events({ scheduleId: "h", limit: 2 })
    expect(events[0]).toMatchObject({ type: "schedule/set", data: { cause: "backfilled", run: 2, count: 1 } })
  })

  it("paces a large backfill through the same dispatch: at most 32 in flight, retried like any delivery", async () => {
    const { name, stub, stream } = await clientAt(T0)
    await stream.upsert({ id: "m", consumer: "test.scripted", every: "1 minute", startAt: T0 - 50 * MINUTE })
    const { backfill } = await stream.backfill("m", { from: T0 - 40 * MINUTE, to: T0 - MINUTE })
    expect(backfill.count).toBe(40)
    script.set(backfill.ids[0] as string, ["retry"])
    const first = await tickAt(stub, T0)
    expect(first.claimed).toBe(BATCH_SIZE)
    const second = await tickAt(stub, T0 + 1)
    expect(second.claimed).toBe(40 - BATCH_SIZE)
    expect(await tickAt(stub, T0 + 2 * SECOND)).toMatchObject({ delivered: 1 })
    const keys = deliveredTo(name).map((d) => d.idempotencyKey)
    expect(keys).toHaveLength(41)
    expect(new Set(keys).size).toBe(40)
    expect(await stream.get(backfill.ids[0] as string)).toMatchObject({ state: "completed" })
  })

  it("refuses a one-shot, a range in the future or reversed, and more than 1,000 occurrences, writing nothing", async () => {
    const opened = openStream("backfill-refused")
    const { stream } = { stream: Schedules.stream(env.SCHEDULES, opened.name) }
    await opened.setNow(T0)
    await stream.upsert({ id: "once", consumer: "test.scripted", at: T0 + HOUR })
    await stream.upsert({ id: "fast", consumer: "test.scripted", every: "1 second" })
    const before = await opened.snapshot()
    const refused = (id: string, options: Record<string, unknown>) =>
      stream.backfill(id, options as never).catch((error) => error)
    expect(await refused("once", { from: T0 - HOUR, to: T0 })).toBeInstanceOf(ScheduleStateError)
    expect(await refused("fast", { from: T0 - HOUR, to: T0 + HOUR })).toMatchObject({ field: "to" })
    expect(await refused("fast", { from: T0 - HOUR, to: T0 - 2 * HOUR })).toMatchObject({ field: "to" })
    expect(await refused("fast", { from: "yesterday", to: T0 })).toMatchObject({ field: "from" })
    const over = await refused("fast", { from: T0 - HOUR, to: T0 })
    expect(over).toMatchObject({ name: "ScheduleDefinitionError", field: "to" })
    expect(over.message).toMatch(/more than 1000 occurrences/)
    expect(await refused("missing", { from: T0 - HOUR, to: T0 })).toMatchObject({ name: "ScheduleNotFoundError" })
    expect(await opened.snapshot()).toEqual(before)
    // 1,000 exactly is allowed.
    const { backfill } = await stream.backfill("fast", { from: T0 - 999 * SECOND, to: T0, dryRun: true })
    expect(backfill.count).toBe(1_000)
  })
})

describe("a note on cancel", () => {
  it("keeps the reason on the schedule, in its view and its event, until it is resumed", async () => {
    const { stream } = await clientAt(T0)
    await stream.upsert({ id: "p", consumer: "test.scripted", every: "1 hour" })
    const cancelled = await stream.cancel("p", { reason: "billing dispute, pause until it is settled" })
    expect(cancelled).toMatchObject({ state: "cancelled", cancelReason: "billing dispute, pause until it is settled" })
    expect(await stream.get("p")).toMatchObject({ cancelReason: "billing dispute, pause until it is settled" })
    const [event] = await stream.events({ scheduleId: "p", limit: 1 })
    expect(event).toMatchObject({
      type: "schedule/cancelled",
      data: { reason: "billing dispute, pause until it is settled", from: "scheduled" },
    })
    expect((await stream.resume("p")).cancelReason).toBeNull()
    expect((await stream.cancel("p")).cancelReason).toBeNull()
    const long = await stream.resume("p").then(() => stream.cancel("p", { reason: "x".repeat(5_000) }))
    expect(long.cancelReason).toHaveLength(1_000)
    await stream.resume("p")
    expect((await stream.cancel("p", "given as a string")).cancelReason).toBe("given as a string")
    await stream.resume("p")
    const bad = await stream.cancel("p", { reason: 42 as never }).catch((e) => e)
    expect(bad).toMatchObject({ name: "ScheduleDefinitionError", field: "reason" })
    expect(await stream.get("p")).toMatchObject({ state: "scheduled" })
  })
})
