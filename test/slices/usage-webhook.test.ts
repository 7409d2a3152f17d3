import { listDurableObjectIds } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { logger } from "../../src/infra/log.ts"
import { usageWebhook } from "../../src/slices/billing/index.ts"
import { adminFetch } from "../support/admin.ts"
import { captureLogs } from "../support/logs.ts"
import { tickAt } from "../support/streams.ts"
import {
  account,
  deliverDue,
  fakeReceiver,
  HOOK,
  idOf,
  keyOf,
  MINUTE,
  streamOf,
  subscribe,
  subscribeDeployed,
  subscribed,
  viewOf,
  WEBHOOK_ID,
} from "../support/webhook.ts"

const logs = captureLogs()
const receiver = fakeReceiver()

describe("PUT /billing/usage/:account/webhook", () => {
  it("creates a per-minute billing.usage-webhook schedule in the account's stream, and a new url replaces it", async () => {
    const before = Date.now()
    const { name, schedule } = await subscribed()
    expect(schedule).toMatchObject({
      stream: name,
      id: expect.stringMatching(WEBHOOK_ID),
      consumer: usageWebhook.name,
      timing: { kind: "every", everyMs: MINUTE },
      payload: { account: name, url: HOOK },
      state: "scheduled",
      occurrence: 1,
    })
    expect(schedule.nextAt).toBeGreaterThanOrEqual(before + MINUTE)
    const listed = await env.DB.prepare("SELECT name FROM schedule_streams WHERE name = ?").bind(name).first()
    expect(listed).toEqual({ name })

    const moved = await subscribe(name, { url: "https://other.example.com/hook?x=1" })
    expect(moved.status).toBe(200)
    expect(await moved.json()).toMatchObject({
      id: schedule.id,
      payload: { account: name, url: "https://other.example.com/hook?x=1" },
      nextAt: schedule.nextAt,
      occurrence: 1,
    })
    expect(receiver.received).toEqual([])
  })

  it.each<[string, unknown]>([
    ["not a url", { url: "not a url" }],
    ["an ftp url", { url: "ftp://hooks.example.com/usage" }],
    ["a javascript: url", { url: "javascript:alert(1)" }],
    ["a relative url", { url: "/usage" }],
    ["a url over 2048 characters", { url: `https://hooks.example.com/${"a".repeat(2048)}` }],
    ["a number", { url: 5 }],
    ["no url", {}],
  ])("refuses %s with 400 naming url, and creates nothing", async (_what, body) => {
    const name = account()
    const objects = (await listDurableObjectIds(env.SCHEDULES)).length
    const res = await subscribe(name, body)
    expect(res.status).toBe(400)
    expect(res.headers.get("content-type")).toBe("application/problem+json")
    expect(await res.json()).toMatchObject({ status: 400, field: "url", detail: expect.stringMatching(/^url: /) })
    expect(await env.DB.prepare("SELECT name FROM schedule_streams WHERE name = ?").bind(name).first()).toBeNull()
    expect((await listDurableObjectIds(env.SCHEDULES)).length).toBe(objects)
  })

  it.each([
    ["plain http", "http://hooks.example.com/usage"],
    ["http to 127.0.0.1", "http://127.0.0.1:9/usage"],
    ["http to localhost", "http://localhost:9/usage"],
  ])("refuses %s on a deployed Worker with 400 naming url, and creates nothing", async (_what, url) => {
    const name = account()
    const objects = (await listDurableObjectIds(env.SCHEDULES)).length
    const res = await subscribeDeployed(name, url)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: "url", detail: expect.stringMatching(/^url: must be https:\/\//) })
    expect(await env.DB.prepare("SELECT name FROM schedule_streams WHERE name = ?").bind(name).first()).toBeNull()
    expect((await listDurableObjectIds(env.SCHEDULES)).length).toBe(objects)
  })

  it("accepts https on a deployed Worker", async () => {
    expect((await subscribeDeployed(account(), HOOK)).status).toBe(200)
  })

  it("running locally (SLOTWISE_LOCAL=1, as the tests do), accepts http://127.0.0.1 and still refuses other http", async () => {
    expect((await subscribe(account(), { url: "http://127.0.0.1:9/usage" })).status).toBe(200)
    for (const url of ["http://hooks.example.com/usage", "http://localhost:9/usage", "http://127.0.0.2/usage"]) {
      const res = await subscribe(account(), { url })
      expect(res.status, url).toBe(400)
      expect(await res.json()).toMatchObject({ field: "url" })
    }
  })

  it("refuses an account that is not a stream name with 400 naming account", async () => {
    const res = await subscribe("a%20b", { url: HOOK })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: "account" })
  })
})

describe("the billing.usage-webhook consumer", () => {
  it("POSTs the rolled-up usage with the delivery's idempotency key; a 2xx is delivered", async () => {
    const { name, schedule } = await subscribed()
    await env.DB.prepare("INSERT INTO usage_totals (account, quantity, through_slot) VALUES (?, ?, ?)")
      .bind(name, 42, 7 * MINUTE)
      .run()
    const report = await deliverDue(name)
    expect(report).toMatchObject({ claimed: 1, delivered: 1, retried: 0, failed: 0 })
    expect(receiver.received).toEqual([
      {
        url: HOOK,
        method: "POST",
        contentType: "application/json",
        idempotencyKey: await keyOf(name, 1),
        body: { account: name, quantity: 42, throughSlot: 7 * MINUTE },
        signal: true,
      },
    ])
    expect(await viewOf(name)).toMatchObject({
      state: "scheduled",
      occurrence: 2,
      attempts: 0,
      lastError: null,
      retryAt: null,
      nextAt: schedule.nextAt + MINUTE,
    })

    // The next occurrence carries the next key; a 204 is delivered too.
    receiver.answers = [204]
    expect(await deliverDue(name)).toMatchObject({ delivered: 1 })
    expect(receiver.received.map((r) => r.idempotencyKey)).toEqual([await keyOf(name, 1), await keyOf(name, 2)])
    expect((await viewOf(name)).occurrence).toBe(3)
  })

  it("reports zero usage when nothing is rolled up yet", async () => {
    const { name } = await subscribed()
    await deliverDue(name)
    expect(receiver.received[0]?.body).toEqual({ account: name, quantity: 0, throughSlot: null })
  })

  it("retries a network failure and a 5xx through the stream, one request per attempt, under the same idempotency key", async () => {
    const { name, schedule } = await subscribed()
    receiver.answers = [new TypeError("Network connection lost."), 503, 200]

    expect(await deliverDue(name)).toMatchObject({ claimed: 1, delivered: 0, retried: 1, failed: 0 })
    const first = await viewOf(name)
    expect(first).toMatchObject({
      state: "scheduled",
      occurrence: 1,
      attempts: 1,
      lastError: `POST ${HOOK} failed: Network connection lost.`,
    })
    expect(first.retryAt).toBeGreaterThan(schedule.nextAt)

    expect(await deliverDue(name)).toMatchObject({ retried: 1 })
    expect(await viewOf(name)).toMatchObject({
      state: "scheduled",
      occurrence: 1,
      attempts: 2,
      lastError: `POST ${HOOK} answered 503`,
    })

    expect(await deliverDue(name)).toMatchObject({ delivered: 1 })
    expect(await viewOf(name)).toMatchObject({ state: "scheduled", occurrence: 2, attempts: 0, lastError: null })
    // Every attempt at occurrence 1 carried its one key, so the receiver can dedupe a retry.
    expect(receiver.received.map((r) => r.idempotencyKey)).toEqual([
      await keyOf(name, 1),
      await keyOf(name, 1),
      await keyOf(name, 1),
    ])
    expect(new Set(receiver.received.map((r) => JSON.stringify(r.body))).size).toBe(1)
    expect(logs.of("schedule.delivery").map((line) => [line.attempt, line.outcome, line.reason])).toEqual([
      [1, "retry", `POST ${HOOK} failed: Network connection lost.`],
      [2, "retry", `POST ${HOOK} answered 503`],
    ])
    // The success is counted in its tick's line.
    expect(logs.of("schedule.tick").map((line) => [line.delivered, line.retried])).toEqual([
      [0, 1],
      [0, 1],
      [1, 0],
    ])
  })

  it.each([500, 502, 408, 429])("retries a %i", async (status) => {
    const { name } = await subscribed()
    receiver.answers = [status]
    expect(await deliverDue(name)).toMatchObject({ retried: 1, failed: 0 })
    expect(await viewOf(name)).toMatchObject({
      state: "scheduled",
      occurrence: 1,
      attempts: 1,
      lastError: `POST ${HOOK} answered ${status}`,
    })
  })

  it("stops a schedule upserted through admin with a url outside the rule (terminal failed), posting nothing", async () => {
    const name = account()
    const url = "http://hooks.example.com/usage"
    const put = await adminFetch(`/admin/streams/${name}/schedules/usage-webhook`, {
      method: "PUT",
      body: JSON.stringify({ consumer: usageWebhook.name, every: "1 minute", payload: { account: name, url } }),
    })
    expect(put.status).toBe(200)
    expect(await deliverDue(name)).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 1 })
    expect(await viewOf(name)).toMatchObject({
      state: "failed",
      lastError: expect.stringMatching(/^url http:\/\/hooks\.example\.com\/usage must be https:\/\//),
    })
    expect(receiver.received).toEqual([])
  })

  it("refuses http://127.0.0.1 at delivery on a deployed Worker (no SLOTWISE_LOCAL)", async () => {
    const delivery = {
      stream: "s",
      scheduleId: "usage-webhook",
      occurrence: 1,
      dueAt: new Date(0),
      attempt: 1,
      lateByMs: 0,
      idempotencyKey: "schedule:s/usage-webhook:1",
      payload: { account: "s", url: "http://127.0.0.1:9/usage" },
    }
    const deployed = { ...env, SLOTWISE_LOCAL: undefined }
    const once = () => Promise.reject(new Error("this consumer writes nothing to D1"))
    const ctx = { env: deployed, signal: new AbortController().signal, log: logger({}), once }
    const outcome = await usageWebhook.deliver(delivery, ctx)
    expect(outcome).toMatchObject({ status: "terminal", reason: expect.stringMatching(/must be https:\/\//) })
    expect(receiver.received).toEqual([])
  })

  it.each([400, 401, 404, 410, 422])("stops the schedule (terminal failed) on a %i", async (status) => {
    const { name } = await subscribed()
    receiver.answers = [status]
    expect(await deliverDue(name)).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 1 })
    const view = await viewOf(name)
    expect(view).toMatchObject({
      state: "failed",
      occurrence: 1,
      lastError: `POST ${HOOK} answered ${status}`,
      retryAt: null,
    })
    const events = await streamOf(name).events(name, { scheduleId: idOf(name), limit: 5 })
    if (!events.ok) throw new Error("no events")
    expect(events.value[0]).toMatchObject({ type: "schedule/failed", data: { terminal: true } })

    // Nothing more is sent until the account fixes its url (a new PUT restarts the schedule).
    expect(await tickAt(streamOf(name), view.nextAt + 10 * MINUTE)).toMatchObject({ claimed: 0 })
    expect(receiver.received).toHaveLength(1)
    // A failed schedule is not reused: the new subscription has its own id, so its own keys.
    const fixed = await subscribe(name, { url: `${HOOK}/v2` })
    expect(await fixed.json()).toMatchObject({ state: "scheduled", occurrence: 1, payload: { url: `${HOOK}/v2` } })
    expect(idOf(name)).not.toBe(view.id)
  })
})
