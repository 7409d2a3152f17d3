import { beforeEach, describe, expect, it } from "vitest"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { keyOf, openStream, RETAINED, SECOND, T0, type TestStream, value } from "../support/streams.ts"

const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

beforeEach(resetConsumers)

const deliveries = () => seen.map(({ delivery }) => delivery)
const eventTypes = async (stream: TestStream, scheduleId: string) =>
  value(await stream.events({ scheduleId })).map((event) => event.type)

describe("every", () => {
  it.each([
    { label: "1 second", interval: SECOND },
    { label: "7 seconds", interval: 7 * SECOND },
  ])(
    "coalesces 10^12 ms of missed $label slots into one delivery on the original cadence",
    async ({ label, interval }) => {
      const stream = openStream("every")
      const first = value(await stream.upsert({ id: "pulse", consumer: "test.scripted", every: label })).nextAt
      expect(first).toBe(T0 + interval)

      const tickAt = first + 1e12
      const report = await stream.tick(tickAt)

      expect(report).toMatchObject({ claimed: 1, delivered: 1, retried: 0, failed: 0, stale: 0 })
      expect(deliveries()).toHaveLength(1)
      expect(deliveries()[0]).toMatchObject({ occurrence: 1, attempt: 1, dueAt: new Date(first) })
      expect(deliveries()[0]?.lateByMs).toBeGreaterThanOrEqual(1e12)

      const after = value(await stream.get("pulse"))
      expect(after.occurrence).toBe(2)
      expect((after.nextAt - first) % interval).toBe(0)
      expect(after.nextAt).toBeGreaterThan(tickAt)
      expect(after.nextAt - tickAt).toBeLessThanOrEqual(interval)
      // The first cadence point strictly after the tick, computed independently.
      expect(after.nextAt).toBe(first + (Math.floor(1e12 / interval) + 1) * interval)
      expect(report.alarm).toBe(after.nextAt)
      expect(await stream.alarm()).toBe(after.nextAt)

      // One fired (and one late) event for all the missed slots, not one per slot.
      expect(await eventTypes(stream, "pulse")).toEqual(["schedule/late", "schedule/fired", "schedule/set"])
      const [, fired] = value(await stream.events({ scheduleId: "pulse" }))
      expect(fired?.data).toMatchObject({ occurrence: 1, nextAt: after.nextAt, state: "scheduled" })

      // Nothing else is due at the tick time: the missed slots are gone, not queued.
      expect(await stream.tick(tickAt)).toMatchObject({ claimed: 0, delivered: 0 })
      expect(deliveries()).toHaveLength(1)
    },
  )
})

describe("cron in a timezone", () => {
  /** Midnight UTC of the last Sunday of `month` (0-based): the EU daylight-saving change days. */
  const lastSunday = (year: number, month: number) => {
    const last = new Date(Date.UTC(year, month + 1, 0))
    return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay())
  }
  const berlinTime = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Berlin",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
  const utcDay = (ms: number) => Math.floor(ms / DAY) * DAY

  it("fires 0 9 * * * Europe/Berlin at 09:00 local on both sides of the spring and autumn changes", async () => {
    const spring = lastSunday(2100, 2)
    const autumn = lastSunday(2100, 9)
    expect(new Date(spring).getUTCDay()).toBe(0)
    expect(new Date(autumn).getUTCMonth()).toBe(9)
    // 09:00 in Berlin is 08:00 UTC in winter time (CET) and 07:00 UTC in summer time (CEST);
    // the clocks change at 01:00 UTC on the change day, so its 09:00 is already on the new time.
    const nineInBerlin = (day: number) => day + (day >= spring && day < autumn ? 7 : 8) * HOUR

    const stream = openStream("berlin")
    const definition = { id: "morning", consumer: "test.scripted", cron: "0 9 * * *", timezone: "Europe/Berlin" }
    value(await stream.upsert(definition, spring - 3 * DAY + 12 * HOUR))
    const deliverDayByDay = async (days: number) => {
      for (let i = 0; i < days; i++) {
        const { nextAt } = value(await stream.get("morning"))
        expect(await stream.tick(nextAt)).toMatchObject({ claimed: 1, delivered: 1 })
      }
    }

    await deliverDayByDay(6)
    // Skipping to autumn: one (late) delivery for the whole summer, then the next 09:00 after now.
    const jump = await stream.tick(autumn - 3 * DAY + 12 * HOUR)
    expect(jump).toMatchObject({ claimed: 1, delivered: 1 })
    expect(value(await stream.get("morning")).nextAt).toBe(nineInBerlin(autumn - 2 * DAY))
    await deliverDayByDay(6)

    const days = [-2, -1, 0, 1, 2, 3, 4]
      .map((d) => spring + d * DAY)
      .concat([-2, -1, 0, 1, 2, 3].map((d) => autumn + d * DAY))
    const dueAts = deliveries().map((delivery) => delivery.dueAt.getTime())
    expect(dueAts).toEqual(days.map(nineInBerlin))
    for (const dueAt of dueAts) expect(berlinTime.format(dueAt)).toBe("09:00")
    expect(dueAts.map((at) => new Date(at).getUTCHours())).toEqual([8, 8, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8])
    expect(dueAts.map(utcDay)).toEqual(days)
    expect(deliveries().map((delivery) => delivery.occurrence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
  })
})

describe("one-shots", () => {
  const dueAt = T0 + 5 * MINUTE

  it.each([
    { form: "a Date", at: new Date(dueAt) },
    { form: "epoch milliseconds", at: dueAt },
    { form: "an ISO 8601 string with an offset", at: "2100-01-04T09:05:00+01:00" },
  ])("at as $form is delivered once at that instant, then completes", async ({ at }) => {
    const stream = openStream("at")
    const payload = { userId: 7, tags: ["trial", "reminder"], nested: { ok: true } }
    const set = value(await stream.upsert({ id: "remind", consumer: "test.scripted", at, payload }))
    expect(set).toMatchObject({ state: "scheduled", occurrence: 1, nextAt: dueAt, timing: { kind: "at", atMs: dueAt } })
    expect(await stream.alarm()).toBe(dueAt)

    expect(await stream.tick(dueAt - 1)).toMatchObject({ claimed: 0, delivered: 0, alarm: dueAt })
    const report = await stream.tick(dueAt)
    expect(report).toMatchObject({ claimed: 1, delivered: 1, alarm: dueAt + RETAINED })

    expect(deliveries()).toEqual([
      {
        stream: stream.name,
        scheduleId: "remind",
        occurrence: 1,
        dueAt: new Date(dueAt),
        attempt: 1,
        lateByMs: expect.any(Number),
        idempotencyKey: await keyOf(stream, "remind", 1),
        payload,
      },
    ])
    expect(deliveries()[0]?.lateByMs).toBeLessThan(SECOND)
    expect(value(await stream.get("remind"))).toMatchObject({ state: "completed", occurrence: 1, attempts: 0 })
    expect(await stream.alarm()).toBe(dueAt + RETAINED)

    // A completed one-shot is never delivered again.
    expect(await stream.tick(dueAt + DAY)).toMatchObject({ claimed: 0, delivered: 0 })
    expect(deliveries()).toHaveLength(1)
    expect(await eventTypes(stream, "remind")).toEqual(["schedule/fired", "schedule/set"])
  })

  it("after a duration is due that long after the upsert, delivered once, then completes", async () => {
    const stream = openStream("after")
    const upsertedAt = T0 + 3 * SECOND
    const set = value(
      await stream.upsert({ id: "later", consumer: "test.quick", after: "10 minutes", payload: "hi" }, upsertedAt),
    )
    expect(set).toMatchObject({ nextAt: upsertedAt + 10 * MINUTE, timing: { kind: "after", afterMs: 10 * MINUTE } })

    expect(await stream.tick(upsertedAt + 10 * MINUTE - 1)).toMatchObject({ delivered: 0 })
    expect(await stream.tick(upsertedAt + 10 * MINUTE)).toMatchObject({
      delivered: 1,
      alarm: upsertedAt + 10 * MINUTE + RETAINED,
    })
    expect(deliveries()).toEqual([
      expect.objectContaining({
        scheduleId: "later",
        occurrence: 1,
        attempt: 1,
        dueAt: new Date(upsertedAt + 10 * MINUTE),
        idempotencyKey: await keyOf(stream, "later", 1),
        payload: "hi",
      }),
    ])
    expect(value(await stream.get("later")).state).toBe("completed")
  })
})

describe("trigger", () => {
  it("delivers the current occurrence now and leaves the cadence where it was", async () => {
    const stream = openStream("trigger")
    const first = value(await stream.upsert({ id: "hourly", consumer: "test.scripted", every: "1 hour" })).nextAt
    expect(first).toBe(T0 + HOUR)

    const triggeredAt = T0 + 10 * MINUTE
    const triggered = value(await stream.trigger("hourly", triggeredAt))
    expect(triggered).toMatchObject({ occurrence: 1, nextAt: triggeredAt })
    expect(await stream.alarm()).toBe(triggeredAt)

    expect(await stream.tick(triggeredAt)).toMatchObject({ delivered: 1 })
    expect(deliveries()).toEqual([
      expect.objectContaining({
        occurrence: 1,
        dueAt: new Date(triggeredAt),
        idempotencyKey: expect.stringMatching(/:1$/),
      }),
    ])
    const after = value(await stream.get("hourly"))
    // Occurrence 2 sits on the original cadence (first + 1 h), not at trigger time + 1 h.
    expect(after).toMatchObject({ occurrence: 2, nextAt: first + HOUR })
    expect(after.nextAt).not.toBe(triggeredAt + HOUR)

    // The original slot of occurrence 1 does not deliver it a second time.
    expect(await stream.tick(first)).toMatchObject({ claimed: 0, delivered: 0 })
    expect(await stream.tick(first + HOUR)).toMatchObject({ delivered: 1 })
    expect(deliveries().map((delivery) => delivery.occurrence)).toEqual([1, 2])
    expect(value(await stream.get("hourly"))).toMatchObject({ occurrence: 3, nextAt: first + 2 * HOUR })
  })
})

describe("lateness", () => {
  it("records schedule/late only past 1 s", async () => {
    const stream = openStream("late")
    const due = T0 + MINUTE
    await stream.upsert({ id: "slightly", consumer: "test.scripted", at: due })
    await stream.upsert({ id: "clearly", consumer: "test.scripted", at: due + HOUR })

    expect(await stream.tick(due + 500)).toMatchObject({ delivered: 1 })
    expect(await eventTypes(stream, "slightly")).toEqual(["schedule/fired", "schedule/set"])
    const [fired] = value(await stream.events({ scheduleId: "slightly" }))
    expect(fired?.data.lateByMs).toBeGreaterThanOrEqual(500)
    expect(fired?.data.lateByMs).toBeLessThan(SECOND)

    expect(await stream.tick(due + HOUR + 5 * SECOND)).toMatchObject({ delivered: 1 })
    expect(await eventTypes(stream, "clearly")).toEqual(["schedule/late", "schedule/fired", "schedule/set"])
    const [late] = value(await stream.events({ scheduleId: "clearly" }))
    expect(late?.data.occurrence).toBe(1)
    expect(late?.data.lateByMs).toBeGreaterThanOrEqual(5 * SECOND)
    expect(late?.data.lateByMs).toBeLessThan(6 * SECOND)
    expect(deliveries().find((d) => d.scheduleId === "clearly")?.lateByMs).toBeGreaterThanOrEqual(5 * SECOND)
  })
})

describe("upsert", () => {
  const hourly = { id: "sync", consumer: "test.scripted", every: "1 hour", payload: { v: 1 } }

  it("changes nothing when the same definition arrives again, even later", async () => {
    const stream = openStream("same")
    const first = value(await stream.upsert(hourly))
    const before = await stream.snapshot()

    const again = value(await stream.upsert(hourly, T0 + 17 * MINUTE))
    expect(again).toEqual(first)
    expect(again).toMatchObject({ nextAt: T0 + HOUR, updatedAt: T0 })
    expect(await stream.snapshot()).toBe(before)
    expect(await eventTypes(stream, "sync")).toEqual(["schedule/set"])
  })

  it.each([
    { what: "extra whitespace", first: { cron: "0 9 * * *" }, again: { cron: "  0   9 * *  * " } },
    { what: "a leading zero", first: { cron: "0 9 * * *" }, again: { cron: "00 09 * * *" } },
    { what: "day names", first: { cron: "30 7 * * 1-5" }, again: { cron: "30 7 * * MON-FRI" } },
    {
      what: "UTC's other name",
      first: { cron: "0 9 * * *", timezone: "UTC" },
      again: { cron: "0 9 * * *", timezone: "Etc/UTC" },
    },
    {
      what: "a zone in lower case",
      first: { cron: "0 9 * * *", timezone: "Europe/Berlin" },
      again: { cron: "0 9 * * *", timezone: "europe/berlin" },
    },
  ])("changes nothing for an equivalent timing written differently: $what", async ({ first, again }) => {
    const stream = openStream("equivalent")
    const definition = { id: "daily", consumer: "test.scripted" }
    script.set("daily", ["retry"])
    const due = value(await stream.upsert({ ...definition, ...first })).nextAt
    // The occurrence is overdue and retrying: a real retime would reset its attempts and move it.
    expect(await stream.tick(due)).toMatchObject({ retried: 1 })
    const before = await stream.snapshot()
    value(await stream.upsert({ ...definition, ...again }, due + 30 * MINUTE))
    expect(await stream.snapshot()).toBe(before)
    expect(value(await stream.get("daily"))).toMatchObject({ nextAt: due, attempts: 1 })
  })

  it("stores a cron with single spaces and the canonical zone name", async () => {
    const stream = openStream("canonical")
    const set = value(
      await stream.upsert({ id: "c", consumer: "test.scripted", cron: " 0  9 * * * ", timezone: "Etc/UTC" }),
    )
    expect(set.timing).toEqual({ kind: "cron", cron: "0 9 * * *", timezone: "UTC" })
  })

  it("updates a changed payload without moving next_at", async () => {
    const stream = openStream("payload")
    value(await stream.upsert(hourly))
    const updated = value(await stream.upsert({ ...hourly, payload: { v: 2 } }, T0 + 17 * MINUTE))
    expect(updated).toMatchObject({ payload: { v: 2 }, nextAt: T0 + HOUR, occurrence: 1, updatedAt: T0 + 17 * MINUTE })
    const [event] = value(await stream.events({ scheduleId: "sync" }))
    expect(event).toMatchObject({ type: "schedule/set", data: { cause: "updated", nextAt: T0 + HOUR } })

    expect(await stream.tick(T0 + HOUR)).toMatchObject({ delivered: 1 })
    expect(deliveries()[0]?.payload).toEqual({ v: 2 })
  })

  it("recomputes next_at from a changed timing and keeps the occurrence", async () => {
    const stream = openStream("retime")
    value(await stream.upsert(hourly))
    await stream.tick(T0 + HOUR)
    expect(value(await stream.get("sync"))).toMatchObject({ occurrence: 2, nextAt: T0 + 2 * HOUR })

    const retimedAt = T0 + HOUR + 5 * MINUTE
    const retimed = value(await stream.upsert({ ...hourly, every: "2 hours" }, retimedAt))
    expect(retimed).toMatchObject({ occurrence: 2, nextAt: retimedAt + 2 * HOUR, timing: { everyMs: 2 * HOUR } })
    const [event] = value(await stream.events({ scheduleId: "sync" }))
    expect(event).toMatchObject({ data: { cause: "retimed", occurrence: 2 } })
    expect(await stream.alarm()).toBe(retimedAt + 2 * HOUR)
  })

  it("starts a failed schedule again", async () => {
    const stream = openStream("restart-failed")
    value(await stream.upsert(hourly))
    script.set("sync", ["terminal"])
    expect(await stream.tick(T0 + HOUR)).toMatchObject({ failed: 1 })
    expect(value(await stream.get("sync"))).toMatchObject({ state: "failed", occurrence: 1 })

    const restartedAt = T0 + 2 * HOUR
    const restarted = value(await stream.upsert(hourly, restartedAt))
    expect(restarted).toMatchObject({
      state: "scheduled",
      occurrence: 1,
      attempts: 0,
      lastError: null,
      nextAt: restartedAt + HOUR,
    })
    const [event] = value(await stream.events({ scheduleId: "sync" }))
    expect(event).toMatchObject({ data: { cause: "restarted" } })
    expect(await stream.tick(restartedAt + HOUR)).toMatchObject({ delivered: 1 })
  })

  it("starts a cancelled schedule again", async () => {
    const stream = openStream("restart-cancelled")
    value(await stream.upsert(hourly))
    value(await stream.cancel("sync", T0 + MINUTE))
    expect(await stream.alarm()).toBe(T0 + MINUTE + RETAINED)

    const restarted = value(await stream.upsert(hourly, T0 + 2 * MINUTE))
    expect(restarted).toMatchObject({ state: "scheduled", occurrence: 1, nextAt: T0 + 2 * MINUTE + HOUR })
    expect(await stream.alarm()).toBe(T0 + 2 * MINUTE + HOUR)
  })

  it("starts a completed one-shot again as a new occurrence with a new idempotency key", async () => {
    const stream = openStream("restart-completed")
    const once = { id: "once", consumer: "test.scripted", at: T0 + MINUTE }
    value(await stream.upsert(once))
    await stream.tick(T0 + MINUTE)
    expect(value(await stream.get("once"))).toMatchObject({ state: "completed", occurrence: 1 })

    const restarted = value(await stream.upsert(once, T0 + HOUR))
    expect(restarted).toMatchObject({ state: "scheduled", occurrence: 2, nextAt: T0 + MINUTE })
    expect(await stream.tick(T0 + HOUR)).toMatchObject({ delivered: 1 })
    expect(deliveries().map((delivery) => delivery.idempotencyKey)).toEqual([
      await keyOf(stream, "once", 1),
      await keyOf(stream, "once", 2),
    ])
    expect(value(await stream.get("once"))).toMatchObject({ state: "completed", occurrence: 2 })
  })
})
