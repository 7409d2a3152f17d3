import { exports } from "cloudflare:workers"
import { afterEach, beforeEach, expect, type MockInstance, vi } from "vitest"
import type { ScheduleView } from "../../src/infra/schedules/index.ts"
import { ADMIN_TOKEN, adminFetch } from "./admin.ts"
import { stubOf, tickAt } from "./streams.ts"

/** One POST the consumer made, as the receiver saw it. */
export interface Received {
  url: string
  method: string
  contentType: string | null
  idempotencyKey: string | null
  body: unknown
  signal: boolean
}

/** What the fake receiver does with the n-th request (1-based): answer a status, or fail the connection. */
export type Answer = number | Error

/**
 * Replaces the global fetch with a receiver for each test of the file: what it saw, and the answers it gives.
 * @example const receiver = fakeReceiver(); receiver.answers = [503]; ... expect(receiver.received).toEqual([])
 */
export function fakeReceiver() {
  const state = {
    received: [] as Received[],
    answers: [] as Answer[],
    spy: undefined as MockInstance<typeof fetch> | undefined,
    /** The real fetch again, for a test that goes through workerd's own (test/support/webhook-receivers.ts). */
    restore: () => state.spy?.mockRestore(),
  }
  // @cloudflare/vitest-plugin 1.5 no longer exports fetchMock from cloudflare:test. The stream's
  // object runs in this isolate, so the consumer's global fetch is replaced here instead.
  beforeEach(() => {
    state.received = []
    state.answers = []
    state.spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init)
      state.received.push({
        url: request.url,
        method: request.method,
        contentType: request.headers.get("content-type"),
        idempotencyKey: request.headers.get("idempotency-key"),
        body: await request.json(),
        signal: init?.signal instanceof AbortSignal,
      })
      const answer = state.answers.shift() ?? 200
      if (answer instanceof Error) throw answer
      return new Response(answer === 204 ? null : "receiver says hi", { status: answer })
    })
  })
  afterEach(() => state.restore())
  return state
}

export const HOOK = "https://hooks.example.com/usage"
export const MINUTE = 60_000
export const WEBHOOK_ID = /^usage-webhook-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let accounts = 0
// Unique across test files too, whatever storage they share.
const run = crypto.randomUUID().slice(0, 8)
export const account = () => `hook-${run}-${++accounts}`

/** Each account's webhook schedule id, as its last subscribe answered it; an admin-upserted one is "usage-webhook". */
const ids = new Map<string, string>()
export const idOf = (name: string) => ids.get(name) ?? "usage-webhook"

/** PUT /billing/usage/:account/webhook as the tests' Worker answers it (SLOTWISE_LOCAL=1). */
export async function subscribe(name: string, body: unknown) {
  const res = await exports.default.fetch(`http://slotwise.test/billing/usage/${name}/webhook`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  })
  if (res.ok) ids.set(name, ((await res.clone().json()) as ScheduleView).id)
  return res
}

/** The route as a deployed Worker answers it: no SLOTWISE_LOCAL. */
export const subscribeDeployed = (name: string, url: string) =>
  adminFetch(`/billing/usage/${name}/webhook`, {
    method: "PUT",
    body: JSON.stringify({ url }),
    env: { SLOTWISE_LOCAL: undefined },
  })

export const streamOf = stubOf

export async function viewOf(name: string): Promise<ScheduleView> {
  const reply = await streamOf(name).get(name, idOf(name))
  if (!reply.ok) throw new Error(JSON.stringify(reply.error))
  return reply.value
}

/** Subscribes a fresh account and answers its name and its schedule as the route returned it. */
export async function subscribed(url = HOOK) {
  const name = account()
  const res = await subscribe(name, { url })
  expect(res.status).toBe(200)
  return { name, schedule: (await res.json()) as ScheduleView }
}

/** Ticks the account's stream at the time its schedule is next eligible (the stream's clock set there). */
export async function deliverDue(name: string) {
  const view = await viewOf(name)
  return tickAt(streamOf(name), view.eligibleAt)
}

/** The key of occurrence `occurrence` of the account's schedule: its view's key, at that occurrence. */
export async function keyOf(name: string, occurrence: number): Promise<string> {
  const { idempotencyKey } = await viewOf(name)
  return `${idempotencyKey.slice(0, idempotencyKey.lastIndexOf(":"))}:${occurrence}`
}
