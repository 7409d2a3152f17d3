import { describe, expect, it } from "vitest"
import type { ScheduleView } from "../../src/infra/schedules/index.ts"
import { adminFetch } from "../support/admin.ts"
import { tickAt } from "../support/streams.ts"
import {
  account,
  deliverDue,
  fakeReceiver,
  HOOK,
  MINUTE,
  streamOf,
  subscribe,
  subscribed,
  WEBHOOK_ID,
} from "../support/webhook.ts"

const receiver = fakeReceiver()

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
    const keys = receiver.received.map((r) => r.idempotencyKey)
    const second = renewed.idempotencyKey.slice(0, -":1".length)
    expect(keys).toEqual([schedule.idempotencyKey, renewed.idempotencyKey, `${second}:2`])
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
    expect(await tickAt(streamOf(name), schedule.nextAt + MINUTE)).toMatchObject({ claimed: 0 })

    const again = (await (await subscribe(name, { url: HOOK })).json()) as ScheduleView
    expect(again).toMatchObject({ id: expect.stringMatching(WEBHOOK_ID), state: "scheduled" })
    expect(again.id).not.toBe(schedule.id)
    expect(await (await hookOf(name, "GET")).json()).toMatchObject({ id: again.id })
    expect(receiver.received).toEqual([])
  })
})
