import { env, runInDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { Schedules } from "../../src/infra/index.ts"
import { NAME } from "../../src/infra/schedules/contract/limits.ts"
import { backfillId } from "../../src/infra/schedules/stream/backfill.ts"
import { adminFetch, json } from "../support/admin.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { stubOf, T0, tickAt } from "../support/streams.ts"

/** Issue 46: a backfill of a schedule whose id is 104-128 characters made rows no client or admin call could address. */

const HOUR = 3_600_000
let streams = 0

beforeEach(() => resetConsumers())

async function backfilledLong(idLength: number, prefix: string) {
  const name = `${prefix}-${++streams}`
  const stub = stubOf(name)
  await stub.setNow(T0)
  const stream = Schedules.stream(env.SCHEDULES, name)
  const id = `${"x".repeat(idLength - 2)}-${idLength % 10}`
  await stream.upsert({ id, consumer: "test.scripted", every: "1 hour", startAt: T0 - 10 * HOUR, maxAttempts: null })
  const { backfill } = await stream.backfill(id, { from: T0 - 4 * HOUR, to: T0 - HOUR })
  return { name, stub, stream, id, ids: backfill.ids }
}

describe("backfill of a schedule with a long id", () => {
  it("names every row with an id of at most 128 characters that the client can get, cancel and remove", async () => {
    for (const length of [100, 104, 110, 128]) {
      const { stub, stream, id, ids } = await backfilledLong(length, "bf-long")
      expect(ids).toHaveLength(4)
      expect(new Set(ids).size).toBe(4)
      for (const bid of ids) {
        expect(bid.length).toBeLessThanOrEqual(128)
        expect(bid).toMatch(NAME)
      }
      // Every one fails, retried on the backoff: each can still be read, cancelled and removed.
      for (const bid of ids) script.set(bid, ["retry", "retry", "retry"])
      await tickAt(stub, T0)
      for (const bid of ids) {
        const view = await stream.get(bid)
        expect(view).toMatchObject({ id: bid, backfillOf: id, state: "scheduled", attempts: 1 })
        expect(await stream.cancel(bid, { reason: "stop retrying" })).toMatchObject({ state: "cancelled" })
        expect(await stream.remove(bid)).toMatchObject({ id: bid, state: "cancelled" })
        expect(await stream.get(bid)).toBeUndefined()
      }
      const left = (await stream.list()).schedules.map((s) => s.id)
      expect(left).toEqual([id])
    }
  })

  it("lets admin get, cancel and remove a failing backfill row of a 128-character id", async () => {
    const { name, stub, id, ids } = await backfilledLong(128, "bf-long-admin")
    for (const bid of ids) script.set(bid, ["retry", "retry"])
    await tickAt(stub, T0)
    expect(seen.filter((s) => s.delivery.stream === name)).toHaveLength(4)
    const at = (bid: string, verb = "") => `/admin/streams/${name}/schedules/${bid}${verb && `/${verb}`}`
    for (const bid of ids) {
      const got = await adminFetch(at(bid))
      expect(got.status).toBe(200)
      expect((await json(got)).schedule).toMatchObject({ id: bid, backfillOf: id, lastError: expect.any(String) })
      const cancelled = await adminFetch(at(bid, "cancel"), { method: "POST", body: JSON.stringify({ reason: "x" }) })
      expect(cancelled.status).toBe(200)
      expect((await adminFetch(at(bid), { method: "DELETE" })).status).toBeLessThan(300)
      expect((await adminFetch(at(bid))).status).toBe(404)
    }
  })

  it("keeps a short parent's ids as they were; a long parent's are deterministic, distinct per parent, run and time", () => {
    expect(backfillId("h", 3, T0)).toBe(`h~backfill-3-${T0}`)
    const a = `${"a".repeat(120)}-1`
    const b = `${"a".repeat(120)}-2`
    expect(backfillId(a, 1, T0)).toBe(backfillId(a, 1, T0))
    const ids = new Set(
      [a, b].flatMap((p) => [1, 2, 999_999].flatMap((run) => [T0, T0 + HOUR].map((t) => backfillId(p, run, t)))),
    )
    expect(ids.size).toBe(12)
    for (const bid of ids) expect(bid).toMatch(NAME)
  })

  it("still lets the client and admin read, cancel and remove a row 0.2.0 named past 128 characters", async () => {
    const { name, stub, stream, id, ids } = await backfilledLong(100, "bf-legacy")
    // 0.2.0 named a backfill row of a 120-character id `<id>~backfill-<run>-<time>`, 149 characters.
    const legacy = `${"y".repeat(120)}~backfill-1-${T0 - HOUR}`
    expect(legacy.length).toBeGreaterThan(128)
    await runInDurableObject(stub as unknown as DurableObjectStub, (_instance, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE schedules SET id = ? WHERE id = ?", legacy, ids[0])
    })
    script.set(legacy, ["retry", "retry"])
    await tickAt(stub, T0)
    expect(await stream.get(legacy)).toMatchObject({ id: legacy, backfillOf: id, attempts: 1 })
    const at = (verb = "") => `/admin/streams/${name}/schedules/${legacy}${verb && `/${verb}`}`
    expect((await adminFetch(at())).status).toBe(200)
    expect((await adminFetch(at("cancel"), { method: "POST" })).status).toBe(200)
    expect((await adminFetch(at(), { method: "DELETE" })).status).toBeLessThan(300)
    expect(await stream.get(legacy)).toBeUndefined()
    // Only that shape: any other id past 128 characters is still refused, naming the field.
    await expect(stream.get("z".repeat(129))).rejects.toMatchObject({ field: "id" })
    expect((await adminFetch(`/admin/streams/${name}/schedules/${"z".repeat(129)}`)).status).toBe(400)
  })
})
