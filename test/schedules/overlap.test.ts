import { beforeEach, describe, expect, it } from "vitest"
import { resetConsumers, script, seen, waiting } from "../support/consumers.ts"
import { eventsOf, openStream, SECOND, storedRow, T0, type TestStream, until, value } from "../support/streams.ts"

const DUE = T0 + 60 * SECOND
/** The claim of test.scripted: the default 30 s deadline plus the 30 s margin. */
const LEASE = 60 * SECOND

async function parked(count = 1) {
  await until(() => waiting.length === count, `${count} delivery(ies) to park`)
  return waiting[count - 1] as (typeof waiting)[number]
}

const keys = () => seen.map((s) => s.delivery.idempotencyKey)

/** Starts again, during its delivery, a schedule that was cancelled during it. */
const restarts: Record<string, (stream: TestStream, id: string, now: number) => Promise<unknown>> = {
  upsert: (stream, id, now) => stream.upsert({ id, consumer: "test.scripted", at: DUE }, now),
  resume: (stream, id, now) => stream.resume(id, now),
}

describe("a key is never delivered while an earlier delivery of it may still run", () => {
  beforeEach(() => resetConsumers())

  it.each(Object.keys(restarts))(
    "cancel, then %s, during a delivery: the next claim waits for the first claim's lease",
    async (how) => {
      const stream = openStream(`overlap-${how}`)
      const id = "restarted-mid-flight"
      script.set(id, ["wait", "ok"])
      value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }))
      const first = stream.tick(DUE)
      const delivery = await parked()
      const claimUntil = (await storedRow(stream, id)).claim_until as number
      expect(claimUntil).toBe(DUE + LEASE)

      value(await stream.cancel(id, DUE + 10))
      value((await restarts[how]?.(stream, id, DUE + 20)) as { ok: true; value: unknown })
      // Due again at once, with the same key: held back until the first claim's lease ends.
      expect(await stream.tick(DUE + 30)).toMatchObject({ claimed: 0, alarm: claimUntil })
      expect(await storedRow(stream, id)).toMatchObject({
        state: "scheduled",
        occurrence: 1,
        claim_token: null,
        claim_until: claimUntil,
      })
      expect(await stream.tick(claimUntil - 1)).toMatchObject({ claimed: 0 })
      expect(keys()).toHaveLength(1)

      // The first delivery's answer is stale: the fence refuses it and it writes nothing.
      const before = await stream.snapshot()
      await stream.inside(() => delivery.answer())
      expect(await first).toMatchObject({ claimed: 1, delivered: 0, stale: 1 })
      expect(await stream.snapshot()).toBe(before)

      expect(await stream.tick(claimUntil)).toMatchObject({ claimed: 1, delivered: 1 })
      expect(keys()).toEqual([keys()[0], keys()[0]])
      expect(await storedRow(stream, id)).toMatchObject({ state: "completed", claim_until: null })
      const fired = (await eventsOf(stream, id)).filter((e) => e.type === "schedule/fired")
      expect(fired).toHaveLength(1)
    },
  )

  it("refuses to remove a cancelled schedule while its delivery may still run", async () => {
    const stream = openStream("overlap-remove")
    const id = "removed-mid-flight"
    script.set(id, ["wait"])
    value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }))
    const first = stream.tick(DUE)
    const delivery = await parked()
    const claimUntil = (await storedRow(stream, id)).claim_until as number
    value(await stream.cancel(id, DUE + 10))

    // Removed now, the id would start over at occurrence 1: the same key, delivered again at once.
    const refused = await stream.remove(id, DUE + 20)
    expect(refused).toMatchObject({ ok: false, error: { code: "conflict" } })
    expect(refused.ok === false && refused.error.message).toMatch(/may still be running/)
    await stream.inside(() => delivery.answer())
    expect(await first).toMatchObject({ stale: 1 })
    expect(value(await stream.remove(id, claimUntil))).toMatchObject({ id, state: "cancelled" })
    expect(await stream.row(id)).toBeUndefined()
  })

  it("still triggers a cancelled-and-resumed occurrence only once its earlier delivery's lease ended", async () => {
    const stream = openStream("overlap-trigger")
    const id = "triggered-after-resume"
    script.set(id, ["wait", "ok"])
    value(await stream.upsert({ id, consumer: "test.scripted", every: 3_600 * SECOND }))
    const due = T0 + 3_600 * SECOND
    const first = stream.tick(due)
    const delivery = await parked()
    const claimUntil = (await storedRow(stream, id)).claim_until as number
    value(await stream.cancel(id, due + 10))
    value(await stream.resume(id, due + 20))

    expect(await stream.trigger(id, due + 30)).toMatchObject({ ok: false, error: { code: "conflict" } })
    await stream.inside(() => delivery.answer())
    expect(await first).toMatchObject({ stale: 1 })
    value(await stream.trigger(id, claimUntil))
    expect(await stream.tick(claimUntil)).toMatchObject({ claimed: 1, delivered: 1 })
    expect(keys()).toEqual([keys()[0], keys()[0]])
  })
})
