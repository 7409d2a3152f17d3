import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import { ScheduleDefinitionError, Schedules } from "../../src/infra/schedules/index.ts"
import { resetConsumers } from "../support/consumers.ts"
import { openStream, SECOND, T0, type TestStream, value } from "../support/streams.ts"

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
    ["every under 1 second", { every: 999 }, "every"],
    ["every that is not a duration", { every: "often" }, "every"],
    ["at without an offset", { every: undefined, at: "2100-01-04T09:00:00" }, "at"],
    ["at that is not a date", { every: undefined, at: "tomorrow" }, "at"],
    ["at before 1970 as a number", { every: undefined, at: -1 }, "at"],
    ["at before 1970 as a Date", { every: undefined, at: new Date(-1) }, "at"],
    ["at before 1970 as a string", { every: undefined, at: "1969-12-31T23:59:59Z" }, "at"],
    ["a payload with a function", { payload: { f: "x", g: () => 1 } }, "payload"],
    ["a payload with NaN", { payload: { n: Number.NaN } }, "payload"],
    ["a payload that is a Date", { payload: { when: new Date(T0) } }, "payload"],
    ["a payload over 64 KiB", { payload: "x".repeat(64 * 1024) }, "payload"],
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
