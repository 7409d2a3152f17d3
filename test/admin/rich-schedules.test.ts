import { evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import type { ScheduleEvent, ScheduleView } from "../../src/infra/schedules/index.ts"
import { adminFetch, json } from "../support/admin.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { stubOf, tickAt } from "../support/streams.ts"
import { expectProblem, putSchedule, snapshot } from "./state.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
/** A whole hour a day ahead of the real clock: within the 10-year horizon admin checks, and never due for real. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR + 24 * HOUR
let streams = 0

/** A fresh stream whose object's clock is at `now`. */
async function streamAt(now: number) {
  const name = `admin-rich-${++streams}`
  const stub = stubOf(name)
  await stub.setNow(now)
  return { name, stub }
}

const path = (stream: string, id: string, verb = "") => `/admin/streams/${stream}/schedules/${id}${verb && `/${verb}`}`
const put = (stream: string, id: string, body: Record<string, unknown>) =>
  adminFetch(path(stream, id), { method: "PUT", body: JSON.stringify(body) })
const post = (stream: string, id: string, verb: string, body?: unknown, headers: Record<string, string> = {}) =>
  adminFetch(path(stream, id, verb), {
    method: "POST",
    headers,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  })
const detail = async (stream: string, id: string) => {
  const res = await adminFetch(path(stream, id))
  expect(res.status).toBe(200)
  return (await json(res)) as { schedule: ScheduleView; events: ScheduleEvent[] }
}

beforeEach(() => resetConsumers())

describe("admin: a window, a count and jitter", () => {
  it("PUT takes them in the client's forms and the schedule's view shows them, both times included", async () => {
    const { name } = await streamAt(BASE)
    const view = await putSchedule(name, "rich", {
      consumer: "test.scripted",
      every: "1 hour",
      startAt: new Date(BASE + 2 * HOUR).toISOString(),
      endAt: BASE + 30 * HOUR,
      times: 12,
      jitter: "10 minutes",
    })
    expect(view).toMatchObject({
      startAt: BASE + 2 * HOUR,
      endAt: BASE + 30 * HOUR,
      times: 12,
      delivered: 0,
      jitterMs: 10 * MINUTE,
      cadenceAt: BASE + 2 * HOUR,
      cancelReason: null,
      backfillOf: null,
    })
    expect(view.nextAt - view.cadenceAt).toBeGreaterThanOrEqual(0)
    expect(view.nextAt - view.cadenceAt).toBeLessThanOrEqual(10 * MINUTE)
    const { schedule, events } = await detail(name, "rich")
    expect(schedule).toEqual(view)
    expect(events[0]?.data).toMatchObject({ cause: "created", times: 12, jitterMs: 10 * MINUTE })
  })

  it("refuses each new field with a 400 naming it, writing nothing", async () => {
    const { name } = await streamAt(BASE)
    await putSchedule(name, "keep", { consumer: "test.scripted", every: "1 hour" })
    const before = await snapshot([name])
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ every: "1 hour", startAt: BASE + 2 * HOUR, endAt: BASE + HOUR }, "endAt"],
      [{ at: BASE + HOUR, startAt: BASE }, "startAt"],
      [{ after: "1 hour", endAt: BASE + HOUR }, "endAt"],
      [{ every: "1 hour", startAt: "soon" }, "startAt"],
      [{ every: "1 hour", times: 0 }, "times"],
      [{ every: "1 hour", times: "12" }, "times"],
      [{ at: BASE + HOUR, times: 2 }, "times"],
      [{ every: "1 hour", jitter: "1 hour" }, "jitter"],
      [{ every: "1 hour", jitter: "a bit" }, "jitter"],
      [{ cron: "0 9 * * *", startAt: BASE + 30 * MINUTE, endAt: BASE + 40 * MINUTE }, "endAt"],
    ]
    for (const [timing, field] of cases) {
      await expectProblem(await put(name, "keep", { consumer: "test.scripted", ...timing }), 400, field)
    }
    expect(await snapshot([name])).toEqual(before)
  })

  it("counts a retried occurrence once and keeps the window through a restart mid-window", async () => {
    const { name, stub } = await streamAt(BASE)
    await putSchedule(name, "n", {
      consumer: "test.scripted",
      every: "1 hour",
      startAt: BASE + HOUR,
      endAt: BASE + 4 * HOUR,
      times: 2,
    })
    script.set("n", ["retry", "ok", "ok"])
    expect(await tickAt(stub, BASE + HOUR)).toMatchObject({ retried: 1 })
    expect((await detail(name, "n")).schedule).toMatchObject({ delivered: 0, occurrence: 1, attempts: 1 })
    await evictDurableObject(stub as unknown as DurableObjectStub)
    expect(await tickAt(stub, BASE + HOUR + 1_000)).toMatchObject({ delivered: 1 })
    expect((await detail(name, "n")).schedule).toMatchObject({ delivered: 1, occurrence: 2, state: "scheduled" })
    expect(await tickAt(stub, BASE + 2 * HOUR)).toMatchObject({ delivered: 1 })
    expect((await detail(name, "n")).schedule).toMatchObject({ delivered: 2, state: "completed" })
    expect(await tickAt(stub, BASE + 3 * HOUR)).toMatchObject({ claimed: 0 })
    const keys = seen.filter((s) => s.delivery.stream === name).map((s) => s.delivery.idempotencyKey)
    expect(keys).toHaveLength(3)
    expect(keys[0]).toBe(keys[1])
    // A PUT lowering the count below what was delivered leaves it completed; raising it starts it again.
    const raised = await putSchedule(name, "n", {
      consumer: "test.scripted",
      every: "1 hour",
      startAt: BASE + HOUR,
      endAt: BASE + 4 * HOUR,
      times: 3,
    })
    expect(raised).toMatchObject({ state: "scheduled", delivered: 2, occurrence: 3, nextAt: BASE + 4 * HOUR })
  })
})

describe("admin: cancel with a reason", () => {
  it("keeps a body's reason on the schedule and in its event; no body still cancels; a bad reason is a 400 naming it", async () => {
    const { name } = await streamAt(BASE)
    await putSchedule(name, "p", { consumer: "test.scripted", every: "1 hour" })
    await expectProblem(await post(name, "p", "cancel", { reason: 42 }), 400, "reason")
    await expectProblem(await post(name, "p", "cancel", { why: "x" }), 400)
    await expectProblem(await post(name, "p", "cancel", "reason", { "content-type": "text/plain" }), 400, "body")
    expect((await detail(name, "p")).schedule.state).toBe("scheduled")
    const res = await post(name, "p", "cancel", { reason: "the customer's card expired" })
    expect(res.status).toBe(200)
    expect((await json(res)).schedule).toMatchObject({
      state: "cancelled",
      cancelReason: "the customer's card expired",
    })
    const { schedule, events } = await detail(name, "p")
    expect(schedule.cancelReason).toBe("the customer's card expired")
    expect(events[0]).toMatchObject({ type: "schedule/cancelled", data: { reason: "the customer's card expired" } })
    expect((await post(name, "p", "resume")).status).toBe(200)
    const plain = await post(name, "p", "cancel")
    expect(plain.status).toBe(200)
    expect((await json(plain)).schedule).toMatchObject({ state: "cancelled", cancelReason: null })
  })
})

describe("admin: backfill", () => {
  it("previews the count, then creates one schedule per past occurrence, each delivered under its own key", async () => {
    const { name, stub } = await streamAt(BASE)
    await putSchedule(name, "b", { consumer: "test.scripted", every: "1 hour", payload: { n: 1 } })
    for (let h = 1; h <= 4; h++) await tickAt(stub, BASE + h * HOUR)
    await stub.setNow(BASE + 4 * HOUR + MINUTE)
    const range = { from: new Date(BASE + HOUR).toISOString(), to: BASE + 3 * HOUR }
    const before = await snapshot([name])
    const preview = await post(name, "b", "backfill", { ...range, dryRun: true })
    expect(preview.status).toBe(200)
    expect((await json(preview)).backfill).toMatchObject({ count: 3, dryRun: true, firstAt: BASE + HOUR })
    expect(await snapshot([name])).toEqual(before)
    const res = await post(name, "b", "backfill", range)
    expect(res.status).toBe(200)
    const { backfill, schedule } = await json(res)
    expect(schedule).toMatchObject({ id: "b", occurrence: 5 })
    expect(backfill).toMatchObject({ count: 3, dryRun: false, lastAt: BASE + 3 * HOUR })
    const first = await detail(name, backfill.ids[0])
    expect(first.schedule).toMatchObject({ backfillOf: "b", state: "scheduled", nextAt: BASE + HOUR })
    expect(await tickAt(stub, BASE + 4 * HOUR + MINUTE)).toMatchObject({ delivered: 3 })
    const deliveries = seen.filter((s) => s.delivery.stream === name).map((s) => s.delivery)
    const live = new Set(deliveries.slice(0, 4).map((d) => d.idempotencyKey))
    const again = deliveries.slice(4)
    expect(again.map((d) => d.dueAt.getTime())).toEqual([BASE + HOUR, BASE + 2 * HOUR, BASE + 3 * HOUR])
    for (const d of again) expect(live.has(d.idempotencyKey)).toBe(false)
    const list = await json(await adminFetch(`/admin/streams/${name}/schedules`))
    expect(list.schedules.filter((s: ScheduleView) => s.backfillOf === "b")).toHaveLength(3)
  })

  it("answers 409 for a one-shot and 400 naming the field for a bad range, writing nothing", async () => {
    const { name } = await streamAt(BASE)
    await putSchedule(name, "once", { consumer: "test.scripted", at: BASE + HOUR })
    await putSchedule(name, "fast", { consumer: "test.scripted", every: "1 second" })
    const before = await snapshot([name])
    await expectProblem(await post(name, "once", "backfill", { from: BASE - HOUR, to: BASE }), 409)
    await expectProblem(await post(name, "fast", "backfill", { from: BASE - HOUR, to: BASE }), 400, "to")
    await expectProblem(await post(name, "fast", "backfill", { from: BASE - HOUR, to: BASE + HOUR }), 400, "to")
    await expectProblem(await post(name, "fast", "backfill", { from: "then", to: BASE }), 400, "from")
    await expectProblem(await post(name, "fast", "backfill", { to: BASE }), 400)
    await expectProblem(await post(name, "fast", "backfill"), 400, "body")
    await expectProblem(await post(name, "missing", "backfill", { from: BASE - HOUR, to: BASE }), 404)
    expect(await snapshot([name])).toEqual(before)
  })
})
