import { listDurableObjectIds } from "cloudflare:test"
import { env, exports } from "cloudflare:workers"
import { afterEach, beforeEach, describe, expect, inject, it, type MockInstance, vi } from "vitest"
import { logger } from "../../src/infra/log.ts"
import type { ScheduleStream, ScheduleView } from "../../src/infra/schedules/index.ts"
import { usageWebhook } from "../../src/slices/billing/index.ts"
import { ADMIN_TOKEN, adminFetch } from "../support/admin.ts"
import { captureLogs } from "../support/logs.ts"
import type { Seen } from "../support/webhook-receivers.ts"

const logs = captureLogs()

/** One POST the consumer made, as the receiver saw it. */
interface Received {
  url: string
  method: string
  contentType: string | null
  idempotencyKey: string | null
  body: unknown
  signal: boolean
}

/** What the fake receiver does with the n-th request (1-based): answer a status, or fail the connection. */
type Answer = number | Error

let received: Received[] = []
let answers: Answer[] = []
let spy: MockInstance<typeof fetch>

// @cloudflare/vitest-plugin 1.5 no longer exports fetchMock from cloudflare:test. The stream's
// object runs in this isolate, so the consumer's global fetch is replaced here instead.
beforeEach(() => {
  received = []
  answers = []
  spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init)
    received.push({
      url: request.url,
      method: request.method,
      contentType: request.headers.get("content-type"),
      idempotencyKey: request.headers.get("idempotency-key"),
      body: await request.json(),
      signal: init?.signal instanceof AbortSignal,
    })
    const answer = answers.shift() ?? 200
    if (answer instanceof Error) throw answer
    return new Response(answer === 204 ? null : "receiver says hi", { status: answer })
  })
})

afterEach(() => spy.mockRestore())

const HOOK = "https://hooks.example.com/usage"
const MINUTE = 60_000

let accounts = 0
const account = () => `hook-acct-${++accounts}`

/** Each account's webhook schedule id, as its last subscribe answered it; an admin-upserted one is "usage-webhook". */
const ids = new Map<string, string>()
const idOf = (name: string) => ids.get(name) ?? "usage-webhook"

async function subscribe(name: string, body: unknown) {
  const res = await exports.default.fetch(`http://slotwise.test/billing/usage/${name}/webhook`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  })
  if (res.ok) ids.set(name, ((await res.clone().json()) as ScheduleView).id)
  return res
}

/** The route as a deployed Worker answers it: no SLOTWISE_LOCAL. */
const subscribeDeployed = (name: string, url: string) =>
  adminFetch(`/billing/usage/${name}/webhook`, {
    method: "PUT",
    body: JSON.stringify({ url }),
    env: { SLOTWISE_LOCAL: undefined },
  })

type Stub = Pick<ScheduleStream, "tick" | "get" | "events">
const streamOf = (name: string) => env.SCHEDULES.get(env.SCHEDULES.idFromName(name)) as unknown as Stub

async function viewOf(name: string): Promise<ScheduleView> {
  const reply = await streamOf(name).get(name, idOf(name))
  if (!reply.ok) throw new Error(JSON.stringify(reply.error))
  return reply.value
}

/** Subscribes a fresh account and answers its name and its schedule as the route returned it. */
async function subscribed(url = HOOK) {
  const name = account()
  const res = await subscribe(name, { url })
  expect(res.status).toBe(200)
  return { name, schedule: (await res.json()) as ScheduleView }
}

/** Ticks the account's stream at the time its schedule is next eligible (an injected clock). */
async function deliverDue(name: string) {
  const view = await viewOf(name)
  return streamOf(name).tick(view.eligibleAt)
}

const keyOf = (name: string, occurrence: number) => `schedule:${name}/${idOf(name)}:${occurrence}`
const WEBHOOK_ID = /^usage-webhook-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

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
    expect(received).toEqual([])
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

  const PRIVATE_HOSTS: [string, string][] = [
    ["https://127.0.0.1/usage", "loopback"],
    ["https://127.1.2.3/usage", "loopback"],
    ["https://0x7f.1/usage", "loopback"],
    ["https://2130706433/usage", "loopback"],
    ["https://localhost/usage", "loopback"],
    ["https://[::1]/usage", "loopback"],
    ["https://[::ffff:127.0.0.1]/usage", "loopback"],
    ["https://[::ffff:7f00:1]/usage", "loopback"],
    ["https://0.0.0.0/usage", "unspecified"],
    ["https://[::]/usage", "unspecified"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://[fe80::1]/usage", "link-local"],
    ["https://10.1.2.3/usage", "private"],
    ["https://172.16.0.1/usage", "private"],
    ["https://172.31.255.255/usage", "private"],
    ["https://192.168.1.1/usage", "private"],
    ["https://[::ffff:192.168.1.1]/usage", "private"],
    ["https://[64:ff9b::10.0.0.1]/usage", "private"],
    ["https://100.64.0.1/usage", "shared (carrier-grade NAT)"],
    ["https://[fc00::1]/usage", "unique-local"],
    ["https://[fd12:3456::1]/usage", "unique-local"],
  ]

  it.each(PRIVATE_HOSTS)("refuses %s (a %s address) on a deployed Worker with 400 naming url", async (url, kind) => {
    const name = account()
    const res = await subscribeDeployed(name, url)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      field: "url",
      detail: expect.stringContaining(`url: must not name ${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind} address`),
    })
    expect(await env.DB.prepare("SELECT name FROM schedule_streams WHERE name = ?").bind(name).first()).toBeNull()
  })

  it("running locally, accepts 127.0.0.1 over http and https and refuses every other private address", async () => {
    for (const url of ["http://127.0.0.1:9/usage", "https://127.0.0.1:9/usage"]) {
      expect((await subscribe(account(), { url })).status, url).toBe(200)
    }
    for (const [url, kind] of PRIVATE_HOSTS.filter(([url]) => new URL(url).hostname !== "127.0.0.1")) {
      const res = await subscribe(account(), { url })
      expect(res.status, url).toBe(400)
      expect(await res.json()).toMatchObject({ field: "url", detail: expect.stringContaining(` ${kind} address (`) })
    }
  })

  it.each([
    "https://8.8.8.8/usage",
    "https://172.32.0.1/usage",
    "https://192.169.0.1/usage",
    "https://[2606:4700:4700::1111]/usage",
    "https://[::ffff:8.8.8.8]/usage",
    "https://10.example.com/usage",
  ])("accepts the public %s on a deployed Worker", async (url) => {
    expect((await subscribeDeployed(account(), url)).status).toBe(200)
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
    expect(received).toEqual([
      {
        url: HOOK,
        method: "POST",
        contentType: "application/json",
        idempotencyKey: keyOf(name, 1),
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
    answers = [204]
    expect(await deliverDue(name)).toMatchObject({ delivered: 1 })
    expect(received.map((r) => r.idempotencyKey)).toEqual([keyOf(name, 1), keyOf(name, 2)])
    expect((await viewOf(name)).occurrence).toBe(3)
  })

  it("reports zero usage when nothing is rolled up yet", async () => {
    const { name } = await subscribed()
    await deliverDue(name)
    expect(received[0]?.body).toEqual({ account: name, quantity: 0, throughSlot: null })
  })

  it("retries a network failure and a 5xx with the reason as lastError, under the same idempotency key", async () => {
    const { name, schedule } = await subscribed()
    answers = [new TypeError("Network connection lost."), 503, 200]

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
    expect(received.map((r) => r.idempotencyKey)).toEqual([keyOf(name, 1), keyOf(name, 1), keyOf(name, 1)])
    expect(new Set(received.map((r) => JSON.stringify(r.body))).size).toBe(1)
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
    answers = [status]
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
    expect(received).toEqual([])
  })

  it("stops a schedule stored with a private address before the rule (terminal failed), posting nothing", async () => {
    const name = account()
    const url = "https://169.254.169.254/latest/meta-data"
    const put = await adminFetch(`/admin/streams/${name}/schedules/usage-webhook`, {
      method: "PUT",
      body: JSON.stringify({ consumer: usageWebhook.name, every: "1 minute", payload: { account: name, url } }),
    })
    expect(put.status).toBe(200)
    expect(await deliverDue(name)).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 1 })
    expect(await viewOf(name)).toMatchObject({
      state: "failed",
      lastError: `url ${url} must not name a link-local address (169.254.169.254); only a public host (127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)`,
    })
    expect(received).toEqual([])
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
    const ctx = { env: deployed, signal: new AbortController().signal, log: logger({}) }
    const outcome = await usageWebhook.deliver(delivery, ctx)
    expect(outcome).toMatchObject({ status: "terminal", reason: expect.stringMatching(/must be https:\/\//) })
    expect(received).toEqual([])
  })

  it.each([400, 401, 404, 410, 422])("stops the schedule (terminal failed) on a %i", async (status) => {
    const { name } = await subscribed()
    answers = [status]
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
    expect(await streamOf(name).tick(view.nextAt + 10 * MINUTE)).toMatchObject({ claimed: 0 })
    expect(received).toHaveLength(1)
    // A failed schedule is not reused: the new subscription has its own id, so its own keys.
    const fixed = await subscribe(name, { url: `${HOOK}/v2` })
    expect(await fixed.json()).toMatchObject({ state: "scheduled", occurrence: 1, payload: { url: `${HOOK}/v2` } })
    expect(idOf(name)).not.toBe(view.id)
  })
})

describe("the billing.usage-webhook consumer through workerd's own fetch", () => {
  const seenBy = async (origin: string, path: string) =>
    ((await (await fetch(`${origin}/seen`)).json()) as Seen[]).filter((request) => request.path === path)

  it("does not follow a 307: the attempt is a retry naming the redirect and its target, and the target sees nothing", async () => {
    // The real fetch, so following (or not) is workerd's own redirect handling.
    spy.mockRestore()
    const { redirector, target } = inject("webhookReceivers")
    const path = `/usage/${crypto.randomUUID()}`
    const { name } = await subscribed(`${redirector}${path}`)

    expect(await deliverDue(name)).toMatchObject({ claimed: 1, delivered: 0, retried: 1, failed: 0 })
    expect(await viewOf(name)).toMatchObject({
      state: "scheduled",
      occurrence: 1,
      attempts: 1,
      lastError: `POST ${redirector}${path} answered 307, a redirect to ${target}${path}, which is not followed`,
    })
    expect((await seenBy(redirector, path)).map((r) => [r.method, r.idempotencyKey])).toEqual([
      ["POST", keyOf(name, 1)],
    ])
    expect(await seenBy(target, path)).toEqual([])
  })
})

describe("a webhook subscribed again", () => {
  const admin = (name: string, id: string, action: "cancel" | "remove") =>
    action === "cancel"
      ? adminFetch(`/admin/streams/${name}/schedules/${id}/cancel`, { method: "POST" })
      : adminFetch(`/admin/streams/${name}/schedules/${id}`, { method: "DELETE" })

  it("after its schedule was removed (as the retention window does), starts keys the receiver has never seen", async () => {
    const { name, schedule } = await subscribed()
    await deliverDue(name)
    expect((await admin(name, schedule.id, "cancel")).status).toBe(200)
    expect((await admin(name, schedule.id, "remove")).status).toBe(200)

    const again = await subscribe(name, { url: HOOK })
    expect(again.status).toBe(200)
    const renewed = (await again.json()) as ScheduleView
    expect(renewed).toMatchObject({ id: expect.stringMatching(WEBHOOK_ID), occurrence: 1, state: "scheduled" })
    expect(renewed.id).not.toBe(schedule.id)
    await deliverDue(name)
    await deliverDue(name)
    const keys = received.map((r) => r.idempotencyKey)
    expect(keys).toEqual([
      `schedule:${name}/${schedule.id}:1`,
      `schedule:${name}/${renewed.id}:1`,
      `schedule:${name}/${renewed.id}:2`,
    ])
  })

  it("GET finds the account's webhook, DELETE unsubscribes it, and a new subscribe gets a new id", async () => {
    const hookOf = (name: string, method: "GET" | "DELETE") => adminFetch(`/billing/usage/${name}/webhook`, { method })
    const nobody = account()
    expect((await hookOf(nobody, "GET")).status).toBe(404)
    expect((await hookOf(nobody, "DELETE")).status).toBe(404)

    const { name, schedule } = await subscribed()
    expect(await (await hookOf(name, "GET")).json()).toMatchObject({ id: schedule.id, state: "scheduled" })
    const gone = await hookOf(name, "DELETE")
    expect(gone.status).toBe(200)
    expect(await gone.json()).toMatchObject({ id: schedule.id, state: "cancelled" })
    // A second unsubscribe changes nothing.
    expect(await (await hookOf(name, "DELETE")).json()).toMatchObject({ id: schedule.id, state: "cancelled" })
    expect(await streamOf(name).tick(schedule.nextAt + MINUTE)).toMatchObject({ claimed: 0 })

    const again = (await (await subscribe(name, { url: HOOK })).json()) as ScheduleView
    expect(again).toMatchObject({ id: expect.stringMatching(WEBHOOK_ID), state: "scheduled" })
    expect(again.id).not.toBe(schedule.id)
    expect(await (await hookOf(name, "GET")).json()).toMatchObject({ id: again.id })
    expect(received).toEqual([])
  })
})
