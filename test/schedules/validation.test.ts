import { listDurableObjectIds } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import { MAX_PAYLOAD_DEPTH } from "../../src/infra/schedules/contract/limits.ts"
import {
  type Json,
  type ScheduleDefinition,
  ScheduleDefinitionError,
  Schedules,
} from "../../src/infra/schedules/index.ts"
import { resetConsumers } from "../support/consumers.ts"
import { cronSearches } from "../support/cron-searches.ts"
import { openStream, SECOND, T0, type TestStream, value } from "../support/streams.ts"

/** Arrays nested `depth` deep: [[[]]] is 3. */
const nested = (depth: number) => {
  let value: Json[] = []
  for (let i = 1; i < depth; i++) value = [value]
  return value
}

const base = { id: "ok-1", consumer: "test.scripted", every: "1 minute", payload: { n: 1 } }

let stream: TestStream
beforeEach(async () => {
  resetConsumers()
  stream = openStream("validation")
  value(await stream.upsert(base))
})

describe("bad input is refused before anything is written, naming the field", () => {
  it.each([
    ["an id with a slash", { id: "a/b" }, "id"],
    ["an empty id", { id: "" }, "id"],
    ["an id over 128 characters", { id: "x".repeat(129) }, "id"],
    // URL parsing drops "." and ".." as path segments (even as %2e%2e): no admin route could reach them.
    ["an id of one dot", { id: "." }, "id"],
    ["an id of two dots", { id: ".." }, "id"],
    ["an unknown consumer", { consumer: "billing.nobody" }, "consumer"],
    ["no timing", { every: undefined }, "timing"],
    ["two timings", { at: T0 + SECOND }, "timing"],
    ["an unparsable cron", { every: undefined, cron: "every day at nine" }, "cron"],
    ["a cron with a seconds field", { every: undefined, cron: "0 0 9 * * *" }, "cron"],
    ["an out-of-range cron", { every: undefined, cron: "0 25 * * *" }, "cron"],
    ["an unknown timezone", { every: undefined, cron: "0 9 * * *", timezone: "Mars/Olympus_Mons" }, "timezone"],
    ["a timezone without cron", { timezone: "Europe/Berlin" }, "timezone"],
    // docs/limits.md says IANA names only: a fixed offset has no daylight saving and is not a place.
    ["a fixed offset as timezone", { every: undefined, cron: "0 9 * * *", timezone: "+01:00" }, "timezone"],
    ["a negative fixed offset as timezone", { every: undefined, cron: "0 9 * * *", timezone: "-05:30" }, "timezone"],
    ["a cron that never fires", { every: undefined, cron: "0 0 31 2 *" }, "cron"],
    // February 29th that is also a Monday: next in 2044, past the 10-year bound of the search.
    ["a cron with no occurrence within 10 years", { every: undefined, cron: "0 0 29 2 +1" }, "cron"],
    ["every under 1 second", { every: 999 }, "every"],
    ["every that is not a duration", { every: "often" }, "every"],
    ["at without an offset", { every: undefined, at: "2100-01-04T09:00:00" }, "at"],
    ["at that is not a date", { every: undefined, at: "tomorrow" }, "at"],
    ["at before 1970 as a number", { every: undefined, at: -1 }, "at"],
    ["at before 1970 as a Date", { every: undefined, at: new Date(-1) }, "at"],
    ["at before 1970 as a string", { every: undefined, at: "1969-12-31T23:59:59Z" }, "at"],
    // The runtime's Date.parse moves these to another day instead of refusing them.
    ["at on February 30th", { every: undefined, at: "2030-02-30T09:00Z" }, "at"],
    ["at on February 29th of a common year", { every: undefined, at: "2030-02-29T09:00Z" }, "at"],
    ["at on February 29th of 2100 (not a leap year)", { every: undefined, at: "2100-02-29T09:00Z" }, "at"],
    ["at on April 31st", { every: undefined, at: "2030-04-31T09:00Z" }, "at"],
    ["at in month 13", { every: undefined, at: "2030-13-01T09:00Z" }, "at"],
    ["at on day 0", { every: undefined, at: "2030-01-00T09:00Z" }, "at"],
    ["at at hour 24", { every: undefined, at: "2030-01-01T24:00Z" }, "at"],
    ["at at minute 60", { every: undefined, at: "2030-01-01T09:60Z" }, "at"],
    ["at at second 60", { every: undefined, at: "2030-01-01T09:00:60Z" }, "at"],
    ["at with a +24:00 offset", { every: undefined, at: "2030-01-01T09:00+24:00" }, "at"],
    ["at with an offset of 60 minutes", { every: undefined, at: "2030-01-01T09:00-05:60" }, "at"],
    ["a payload with a function", { payload: { f: "x", g: () => 1 } }, "payload"],
    ["a payload with NaN", { payload: { n: Number.NaN } }, "payload"],
    ["a payload that is a Date", { payload: { when: new Date(T0) } }, "payload"],
    ["a payload over 64 KiB", { payload: "x".repeat(64 * 1024) }, "payload"],
    ["a payload nested one level too deep", { payload: { deep: nested(MAX_PAYLOAD_DEPTH) } }, "payload"],
    [
      "a payload that contains itself",
      {
        payload: (() => {
          const a: unknown[] = [1]
          a.push(a)
          return a
        })(),
      },
      "payload",
    ],
    ["maxAttempts zero", { maxAttempts: 0 }, "maxAttempts"],
    ["maxAttempts fractional", { maxAttempts: 1.5 }, "maxAttempts"],
    ["maxAttempts as a string", { maxAttempts: "3" }, "maxAttempts"],
    ["a misspelt option", { maxAttempt: 3 }, "definition"],
    ["a null timezone", { every: undefined, cron: "0 9 * * *", timezone: null }, "timezone"],
  ] as const)("refuses %s", async (_what, override, field) => {
    const before = await stream.snapshot()
    const definition: Record<string, unknown> = { ...base, id: "new-1", ...override }
    const reply = await stream.upsert(definition)
    expect(reply).toMatchObject({ ok: false, error: { code: "invalid", field } })
    expect(await stream.snapshot()).toBe(before)
  })

  it("names the API an unknown consumer is missing from, not a file of the example app", async () => {
    const reply = await stream.upsert({ ...base, id: "new-1", consumer: "billing.nobody" })
    expect(reply).toMatchObject({ ok: false, error: { field: "consumer" } })
    const message = reply.ok ? "" : reply.error.message
    expect(message).toContain("not among the consumers given to `Schedules.durableObject`")
    expect(message).not.toMatch(/src\//)
  })

  it.each([
    ["a definition that is not an object", ["every minute"], "definition"],
    ["a null definition", null, "definition"],
  ] as const)("refuses %s", async (_what, definition, field) => {
    const before = await stream.snapshot()
    const rpc = stream.stub as unknown as { upsert(stream: string, definition: unknown): Promise<unknown> }
    expect(await rpc.upsert(stream.name, definition)).toMatchObject({ ok: false, error: { code: "invalid", field } })
    expect(await stream.snapshot()).toBe(before)
  })

  it.each([
    ["a space", "bad name"],
    ["129 characters", "s".repeat(129)],
    ["an empty name", ""],
    ["one dot", "."],
    ["two dots", ".."],
  ])("refuses a stream name with %s, writing nothing", async (_what, name) => {
    const before = await stream.snapshot()
    const rpc = stream.stub as unknown as { upsert(stream: string, definition: unknown): Promise<unknown> }
    expect(await rpc.upsert(name, { ...base, id: "new-2" })).toMatchObject({
      ok: false,
      error: { code: "invalid", field: "stream" },
    })
    expect(await stream.snapshot()).toBe(before)
    expect(() => Schedules.stream(env.SCHEDULES, name)).toThrow(ScheduleDefinitionError)
  })

  it("refuses a stream name outside the alphabet, and a stream used under another name", async () => {
    const { stub } = stream
    const rpc = stub as unknown as { get(stream: string, id: string): Promise<unknown> }
    expect(await rpc.get("bad name", "ok-1")).toMatchObject({ ok: false, error: { code: "invalid", field: "stream" } })
    expect(await rpc.get("another-stream", "ok-1")).toMatchObject({ ok: false, error: { code: "conflict" } })
  })

  it("accepts the edges: 128-character id, dotted ids other than . and .., exactly 1 s, exactly 64 KiB of JSON, a timezone", async () => {
    const biggest = "x".repeat(64 * 1024 - 2)
    value(await stream.upsert({ ...base, id: "y".repeat(128) }))
    for (const dotted of ["...", ".a", "a..", "~"]) value(await stream.upsert({ ...base, id: dotted }))
    value(await stream.upsert({ ...base, id: "one-second", every: 1_000 }))
    value(await stream.upsert({ ...base, id: "big", payload: biggest }))
    value(await stream.upsert({ ...base, id: "tz", every: undefined, cron: "30 8 * * 1-5", timezone: "Asia/Kolkata" }))
    expect(value(await stream.get("big")).payload).toBe(biggest)
  })

  it.each([
    ["a leap day", "2028-02-29T09:00Z", Date.UTC(2028, 1, 29, 9)],
    ["a leap day of a year divisible by 400", "2400-02-29T00:00:00Z", Date.UTC(2400, 1, 29)],
    ["the last second of a year", "2030-12-31T23:59:59.999Z", Date.UTC(2030, 11, 31, 23, 59, 59, 999)],
    ["the widest offsets", "2030-01-01T23:59+23:59", Date.UTC(2030, 0, 1, 0, 0)],
    ["a negative offset", "2030-01-01T00:00-23:59", Date.UTC(2030, 0, 1, 23, 59)],
    ["a fraction of one digit", "2030-01-01T09:00:00.5Z", Date.UTC(2030, 0, 1, 9, 0, 0, 500)],
  ])("accepts an at on %s, at the instant it names", async (_what, at, atMs) => {
    const horizonFree = atMs > T0 ? atMs - 86_400_000 : T0
    const view = value(await stream.upsert({ ...base, id: "at-ok", every: undefined, at }, horizonFree))
    expect(view.timing).toEqual({ kind: "at", atMs })
  })

  it.each([2_500, 100_000])(
    "refuses a payload nested %i deep through the client with ScheduleDefinitionError, and writes nothing",
    async (depth) => {
      const name = `validation-deep-payload-${depth}`
      const objects = (await listDurableObjectIds(env.SCHEDULES)).length
      const upsert = Schedules.stream(env.SCHEDULES, name).upsert({
        id: "deep",
        consumer: "test.scripted",
        every: 60_000,
        payload: nested(depth),
      })
      await expect(upsert).rejects.toThrow(ScheduleDefinitionError)
      await expect(upsert).rejects.toMatchObject({ field: "payload", message: expect.stringContaining("64") })
      expect((await listDurableObjectIds(env.SCHEDULES)).length).toBe(objects)
      expect(await env.DB.prepare("SELECT * FROM schedule_streams WHERE name = ?").bind(name).first()).toBeNull()
    },
  )

  it("accepts a payload nested exactly the depth limit, shared (not circular) references included", async () => {
    const shared = { n: 1 }
    value(await stream.upsert({ ...base, id: "deepest", payload: nested(MAX_PAYLOAD_DEPTH) }))
    value(await stream.upsert({ ...base, id: "shared", payload: [shared, shared] }))
    expect(value(await stream.get("deepest")).payload).toEqual(nested(MAX_PAYLOAD_DEPTH))
  })

  it("refuses bad list and events options", async () => {
    expect(await stream.list({ limit: 0 })).toMatchObject({ ok: false, error: { code: "invalid" } })
    expect(await stream.list({ limit: 501 })).toMatchObject({ ok: false, error: { code: "invalid" } })
    expect(await stream.list({ state: "sleeping" as never })).toMatchObject({ ok: false })
    expect(await stream.list({ cursor: "../etc" })).toMatchObject({ ok: false })
    expect(await stream.events({ limit: 10_000 })).toMatchObject({ ok: false })
    expect(await stream.events({ before: -1 })).toMatchObject({ ok: false, error: { code: "invalid" } })
    expect(await stream.events({ before: 1.5 })).toMatchObject({ ok: false, error: { code: "invalid" } })
    expect(await stream.events({ scheduleId: "no/such" })).toMatchObject({ ok: false, error: { field: "id" } })
  })

  it("answers not_found for an unknown id and conflict for a refused transition", async () => {
    expect(await stream.get("missing")).toMatchObject({ ok: false, error: { code: "not_found" } })
    expect(await stream.cancel("missing")).toMatchObject({ ok: false, error: { code: "not_found" } })
    value(await stream.cancel("ok-1"))
    expect(await stream.trigger("ok-1")).toMatchObject({ ok: false, error: { code: "conflict" } })
    expect(await stream.cancel("ok-1")).toMatchObject({ ok: false, error: { code: "conflict" } })
  })
})

describe("an upsert searches a cron's days once, and trusts no caller's witness", () => {
  // Its day pattern, "0 0 1 * *", is no pattern the test sets: each croner call on it is the search.
  const CRON = "15 9 1 * *"
  const rpc = () =>
    stream.stub as unknown as {
      upsert(stream: string, definition: unknown, options: { now: number; firesOn?: unknown }): Promise<unknown>
    }

  it("the client's upsert searches once", async () => {
    const client = Schedules.stream(env.SCHEDULES, stream.name)
    const definition = { id: "cron-once", consumer: "test.scripted", cron: CRON, timezone: "Europe/Berlin" }
    expect(await cronSearches(CRON, () => client.upsert(definition))).toBe(1)
  })

  it("a witness day the cron names saves the search; a wrong one costs it and changes nothing", async () => {
    const definition = { id: "cron-witness", consumer: "test.scripted", cron: CRON }
    const firstOfNextMonth = Date.UTC(2100, 1, 1)
    const witnessed = () => rpc().upsert(stream.name, definition, { now: T0, firesOn: firstOfNextMonth })
    expect(await cronSearches(CRON, witnessed)).toBe(0)
    expect(await stream.get("cron-witness")).toMatchObject({ ok: true, value: { nextAt: Date.UTC(2100, 1, 1, 9, 15) } })
    for (const wrong of [firstOfNextMonth + 86_400_000, T0 + 20 * 366 * 86_400_000, "2100-02-01", -1]) {
      const forged = () => rpc().upsert(stream.name, definition, { now: T0, firesOn: wrong })
      expect(await cronSearches(CRON, forged), String(wrong)).toBe(1)
    }
  })

  it("no claimed witness lets a cron that never fires be stored", async () => {
    const before = await stream.snapshot()
    const definition = { id: "never", consumer: "test.scripted", cron: "0 0 31 2 *" }
    for (const firesOn of [Date.UTC(2100, 1, 28), Date.UTC(2100, 2, 31), T0, undefined]) {
      expect(await rpc().upsert(stream.name, definition, { now: T0, firesOn })).toMatchObject({
        ok: false,
        error: { code: "invalid", field: "cron" },
      })
    }
    expect(await stream.snapshot()).toBe(before)
  })
})

describe("maxAttempts off, as docs/schedules.md and docs/limits.md write it", () => {
  it("null is accepted by the type and stored as off, the same as unset", async () => {
    // A typed definition: `maxAttempts: null` compiles (npm run typecheck checks this file).
    const off: ScheduleDefinition = { id: "off-null", consumer: "test.scripted", every: "1 minute", maxAttempts: null }
    expect(await stream.upsert({ ...off })).toMatchObject({ ok: true, value: { maxAttempts: null } })
    expect(await stream.upsert({ ...base, id: "off-unset" })).toMatchObject({ ok: true, value: { maxAttempts: null } })
  })
})
