import { env, evictDurableObject, runInDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { streamRpc } from "../../src/infra/schedules/client/stream-rpc.ts"
import { STREAM_PROTOCOL } from "../../src/infra/schedules/contract/rpc.ts"
import { Schedules, StreamUnavailableError } from "../../src/infra/schedules/index.ts"
import { SCHEMA_VERSION } from "../../src/infra/schedules/stream/schema.ts"
import { testStreamClass } from "../../src/infra/schedules/stream/testing.ts"
import { SLOTWISE_VERSION } from "../../src/infra/version.ts"
import * as v010 from "../compat/0.1.0/worker.js"
import { adminFetch, json } from "../support/admin.ts"
import { consumers } from "../support/consumers.ts"
import { clock010, deliveredBy010 } from "../support/previous-stream.ts"

const HOUR = 3_600_000
let counter = 0
const fresh = (prefix: string) => `${prefix}-${Date.now()}-${++counter}`

beforeEach(() => {
  clock010.now = undefined
  deliveredBy010.length = 0
})

/**
 * One client's calls, each as a user makes it, against one stream: what every client of either release offers
 * (upsert, get, list, events, trigger, cancel, resume, remove), and its typed refusals. Each must work.
 */
async function everyCallWorks(client: {
  // biome-ignore lint/suspicious/noExplicitAny: each release's client types its definition its own way
  upsert(definition: any): Promise<{ id: string; state: string; nextAt: number | null }>
  get(id: string): Promise<{ id: string; state: string } | undefined>
  list(): Promise<{ schedules: Array<{ id: string }>; cursor: string | null }>
  events(options?: { scheduleId?: string }): Promise<Array<{ type: string }>>
  trigger(id: string): Promise<{ state: string }>
  cancel(id: string): Promise<{ state: string }>
  resume(id: string): Promise<{ state: string }>
  remove(id: string): Promise<{ id: string }>
}) {
  const before = Date.now()
  const hourly = await client.upsert({ id: "hourly", consumer: "test.scripted", every: "1 hour", payload: { n: 1 } })
  expect(hourly).toMatchObject({ id: "hourly", state: "scheduled" })
  expect(hourly.nextAt).toBeGreaterThanOrEqual(before + HOUR)
  expect(await client.get("hourly")).toMatchObject({ id: "hourly", state: "scheduled", nextAt: hourly.nextAt })
  expect(await client.get("nope")).toBeUndefined()
  await client.upsert({ id: "later", consumer: "test.scripted", at: before + 2 * HOUR })
  expect((await client.list()).schedules.map((schedule) => schedule.id)).toEqual(["hourly", "later"])
  expect((await client.events({ scheduleId: "hourly" })).map((event) => event.type)).toEqual(["schedule/set"])
  expect(await client.trigger("later")).toMatchObject({ state: "scheduled" })
  expect(await client.cancel("hourly")).toMatchObject({ state: "cancelled" })
  expect(await client.resume("hourly")).toMatchObject({ state: "scheduled" })
  await client.cancel("hourly")
  expect(await client.remove("hourly")).toMatchObject({ id: "hourly" })
  expect(await client.get("hourly")).toBeUndefined()
  // Refusals stay typed across the releases: a bad field is named, an unknown id is not found.
  await expect(
    client.upsert({ id: "bad", consumer: "test.scripted", every: "1 hour", cron: "* * * * *" }),
  ).rejects.toMatchObject({
    name: "ScheduleDefinitionError",
  })
  await expect(client.cancel("nope")).rejects.toMatchObject({ name: "ScheduleNotFoundError" })
}

describe("0.1.0's client calling today's ScheduleStream", () => {
  it("works for every call 0.1.0's client makes", async () => {
    await everyCallWorks(v010.Schedules.stream(env.SCHEDULES as unknown as DurableObjectNamespace, fresh("old-client")))
  })
})

describe("today's client calling 0.1.0's ScheduleStream", () => {
  it("works for every call both releases have", async () => {
    const name = fresh("new-client")
    await everyCallWorks(Schedules.stream(env.SCHEDULES_010 as never, name))
    const rpc = streamRpc(env.SCHEDULES_010 as never, name)
    expect(await rpc.summary(name)).toMatchObject({ ok: true, value: { stream: name } })
    expect(await rpc.nudge(name)).toMatchObject({ ok: true })
  })

  it("answers a call 0.1.0's stream does not have as unavailable, naming the version skew, both releases and protocols", async () => {
    const name = fresh("new-client-history")
    await Schedules.stream(env.SCHEDULES_010 as never, name).upsert({
      id: "a",
      consumer: "test.scripted",
      every: "1 hour",
    })
    const rpc = streamRpc(env.SCHEDULES_010 as never, name)
    expect(await rpc.protocol()).toEqual({ protocol: 1, release: "0.1.0" })
    const reply = await rpc.history(name, "day")
    expect(reply).toMatchObject({ ok: false, error: { code: "unavailable" } })
    const message = reply.ok ? "" : reply.error.message
    expect(message).toContain("version skew")
    expect(message).toContain("slotwise 0.1.0, stream protocol 1")
    expect(message).toContain(`slotwise ${SLOTWISE_VERSION}, stream protocol ${STREAM_PROTOCOL}`)
    expect(message).toContain("history()")
    // Admin answers it as a 503 problem with the same words, on the stream 0.1.0 listed in the directory.
    const res = await adminFetch(`/admin/streams/${name}/history`, { env: { SCHEDULES: env.SCHEDULES_010 as never } })
    expect(res.status).toBe(503)
    expect(res.headers.get("content-type")).toBe("application/problem+json")
    expect((await json(res)).detail).toBe(message)
  })

  it("reads today's stream's marker: this release and protocol", async () => {
    expect(await streamRpc(env.SCHEDULES, fresh("marker")).protocol()).toEqual({
      protocol: STREAM_PROTOCOL,
      release: SLOTWISE_VERSION,
    })
  })
})

describe("a stream's storage across the two releases' classes", () => {
  it("written by 0.1.0's own class, opens in today's with its schedules intact; 0.1.0 then refuses it, naming both schema versions", async () => {
    const name = fresh("handover")
    clock010.now = Date.UTC(2100, 0, 4, 8, 0)
    const old = v010.Schedules.stream(env.SCHEDULES_010, name)
    const hourly = await old.upsert({ id: "hourly", consumer: "test.scripted", every: "1 hour" })
    const oneShot = await old.upsert({ id: "once", consumer: "test.scripted", at: clock010.now + 90_000 })
    const stub = env.SCHEDULES_010.get(env.SCHEDULES_010.idFromName(name))
    // Today's class on the storage 0.1.0's class wrote (schema version 3): it upgrades it as it opens.
    const seen = await runInDurableObject(stub, async (_instance, state) => {
      const today = new (testStreamClass({ consumers }))(state, env)
      // Its constructor migrates under blockConcurrencyWhile: let that run before the first call.
      await new Promise((resolve) => setTimeout(resolve, 0))
      today.setNow(clock010.now)
      return {
        hourly: await today.get(name, "hourly"),
        once: await today.get(name, "once"),
        version: state.storage.sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").one().value,
      }
    })
    expect(seen.hourly).toMatchObject({ ok: true, value: { state: "scheduled", nextAt: hourly.nextAt, occurrence: 1 } })
    expect(seen.once).toMatchObject({ ok: true, value: { state: "scheduled", nextAt: oneShot.nextAt } })
    expect(seen.version).toBe(String(SCHEMA_VERSION))
    // Rolled back, 0.1.0's class meets storage newer than it knows: every call is refused, naming both versions.
    await evictDurableObject(stub)
    const refusal = new RegExp(`schema version ${SCHEMA_VERSION}, newer than this code's ${v010.SCHEMA_VERSION}`)
    await expect(old.get("hourly")).rejects.toThrow(refusal)
    const today = Schedules.stream(env.SCHEDULES_010 as never, name)
    await expect(today.get("hourly")).rejects.toThrow(StreamUnavailableError)
    await expect(today.get("hourly")).rejects.toThrow(refusal)
  })
})
