import { env } from "cloudflare:test"
import { describe, expect, it } from "vitest"
import { admin } from "../../src/infra/admin/index.ts"
import {
  ConsumerDefinitionError,
  ScheduleDefinitionError,
  ScheduleNotFoundError,
  ScheduleStateError,
  Schedules,
} from "../../src/infra/index.ts"

const AT = "2036-01-04T09:00:00+01:00"

describe("Schedules.stream client", () => {
  it("upserts, reads, lists, cancels and resumes through typed calls", async () => {
    const stream = Schedules.stream(env.SCHEDULES, "client-a")
    const view = await stream.upsert({ id: "r1", consumer: "test.scripted", at: AT, payload: { userId: 7 } })
    expect(view).toMatchObject({ stream: "client-a", id: "r1", state: "scheduled", occurrence: 1 })
    expect(view.nextAt).toBe(Date.parse(AT))
    expect(await stream.get("r1")).toMatchObject({ payload: { userId: 7 } })
    expect(await stream.get("nope")).toBeUndefined()
    expect((await stream.list()).schedules.map((s) => s.id)).toEqual(["r1"])
    expect((await stream.cancel("r1")).state).toBe("cancelled")
    expect((await stream.resume("r1")).state).toBe("scheduled")
    const events = await stream.events({ scheduleId: "r1" })
    expect(events.map((e) => e.type)).toEqual(["schedule/set", "schedule/cancelled", "schedule/set"])
  })

  it("carries a payload without a prototype, which JSON accepts and RPC alone cannot clone", async () => {
    const stream = Schedules.stream(env.SCHEDULES, "client-c")
    const payload = Object.assign(Object.create(null), { nested: Object.assign(Object.create(null), { n: 1 }) })
    await stream.upsert({ id: "bare", consumer: "test.scripted", at: AT, payload })
    expect((await stream.get("bare"))?.payload).toEqual({ nested: { n: 1 } })
  })

  it("throws typed errors that name the field", async () => {
    const stream = Schedules.stream(env.SCHEDULES, "client-b")
    const invalid = await stream.upsert({ id: "r1", consumer: "nobody", at: AT }).catch((e) => e)
    expect(invalid).toBeInstanceOf(ScheduleDefinitionError)
    expect(invalid).toMatchObject({ field: "consumer" })
    const notJson = await stream
      .upsert({ id: "r1", consumer: "test.scripted", at: AT, payload: { f: () => 1 } as never })
      .catch((e) => e)
    expect(notJson).toMatchObject({ name: "ScheduleDefinitionError", field: "payload" })
    expect(await stream.cancel("missing").catch((e) => e)).toBeInstanceOf(ScheduleNotFoundError)
    await stream.upsert({ id: "r2", consumer: "test.scripted", at: AT })
    await stream.cancel("r2")
    expect(await stream.trigger("r2").catch((e) => e)).toBeInstanceOf(ScheduleStateError)
    expect(() => Schedules.stream(env.SCHEDULES, "no spaces")).toThrow(ScheduleDefinitionError)
  })

  it("declares consumers with a bounded timeout, and a stream class or admin refuses duplicates at once", () => {
    const deliver = () => {}
    expect(Schedules.consumer({ name: "x.y", deliver })).toMatchObject({ timeoutMs: 30_000, leaseMs: 60_000 })
    expect(Schedules.consumer({ name: "x.y", timeout: "10 minutes", deliver }).leaseMs).toBe(630_000)
    expect(() => Schedules.consumer({ name: "x.y", timeout: "11 minutes", deliver })).toThrow(ConsumerDefinitionError)
    expect(() => Schedules.consumer({ name: "X Y", deliver })).toThrow(/name must match/)
    const a = Schedules.consumer({ name: "dup", deliver })
    expect(() => Schedules.durableObject({ consumers: [a, a] })).toThrow(/consumer "dup" is declared twice/)
    expect(() => admin({ jobs: [], consumers: [a, a] })).toThrow(/consumer "dup" is declared twice/)
  })
})
