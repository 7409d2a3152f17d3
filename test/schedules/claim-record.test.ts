import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import * as core from "../../src/infra/schedules/stream/core/index.ts"
import { claimDue } from "../../src/infra/schedules/stream/delivery-claim.ts"
import { settleAll } from "../../src/infra/schedules/stream/settlement.ts"
import type { ScheduleStore } from "../../src/infra/schedules/stream/store.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { storedRows } from "../support/stored.ts"
import { openStream, SECOND, T0, type TestStream, type TestStub, tickAt, until, value } from "../support/streams.ts"

const LEASE = 60 * SECOND
captureLogs()
beforeEach(resetConsumers)

/** The rows written by `work` on the stream's store. */
function written(store: ScheduleStore, work: () => void): number {
  const before = store.counts.rowsWritten
  work()
  return store.counts.rowsWritten - before
}

const lease = () => LEASE
const delivered = (claim: core.Claim) => ({ claim, result: { status: "delivered", lateByMs: 0 } as const, now: T0 })

async function upsertMany(stream: TestStream, count: number, timing: Record<string, unknown>) {
  for (let i = 0; i < count; i++)
    value(await stream.upsert({ id: `r${String(i).padStart(2, "0")}`, consumer: "test.scripted", ...timing }))
}

describe("a batch's claim record", () => {
  it("is the one row a claim writes: the rows it claims are written only when they settle", async () => {
    const stream = openStream("claim-record")
    await upsertMany(stream, 40, { at: T0 })
    const result = await stream.inside((instance, state) => {
      const store = instance.storeForTests()
      const stored = () => state.storage.sql.exec("SELECT id, written_seq, claim_token FROM schedules").toArray()
      const before = stored()
      let claims: ReturnType<typeof claimDue> = []
      const claimed = written(store, () => {
        claims = claimDue(store, T0, 32, lease)
      })
      return { claims: claims.length, claimed, before, after: stored(), logical: storedRows(state.storage.sql) }
    })
    expect(result).toMatchObject({ claims: 32, claimed: 1 })
    // Not one schedule row changed; read through the record, each claimed row carries its claim.
    expect(result.after).toEqual(result.before)
    const claimedRows = result.logical.filter((row) => row.claim_token !== null)
    expect(claimedRows).toHaveLength(32)
    expect(claimedRows.every((row) => row.attempts === 1 && row.claim_until === T0 + LEASE)).toBe(true)
    expect(new Set(claimedRows.map((row) => row.claim_token)).size).toBe(32)
  })

  it("brings every row of a batch lost in a crash back at its lease's end, each attempt counted", async () => {
    const stream = openStream("claim-crash")
    await upsertMany(stream, 3, { at: T0 })
    for (const id of ["r00", "r01", "r02"]) script.set(id, ["hang"])
    const interrupted = stream.tick(T0).then(
      () => "finished",
      () => "aborted",
    )
    await until(() => seen.length === 3, "the batch's three deliveries")
    await abortAllDurableObjects()
    expect(await interrupted).toBe("aborted")

    // A new object: the record holds the three rows until the lease ends, and the alarm waits for it.
    const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(stream.name)) as unknown as TestStub
    const held = await tickAt(stub, T0 + LEASE - 1)
    expect(held).toMatchObject({ claimed: 0, alarm: T0 + LEASE })
    const rows = await runInDurableObject(stub as unknown as DurableObjectStub, (_, state) =>
      storedRows(state.storage.sql),
    )
    expect(rows.map((row) => [row.id, row.attempts, row.claim_until])).toEqual([
      ["r00", 1, T0 + LEASE],
      ["r01", 1, T0 + LEASE],
      ["r02", 1, T0 + LEASE],
    ])
    expect(await tickAt(stub, T0 + LEASE)).toMatchObject({ claimed: 3, delivered: 3 })
    expect(seen.slice(3).map(({ delivery }) => [delivery.scheduleId, delivery.attempt])).toEqual([
      ["r00", 2],
      ["r01", 2],
      ["r02", 2],
    ])
  })

  it("is one row, written over by batch after batch once its rows have moved on", async () => {
    const stream = openStream("claim-slots")
    await upsertMany(stream, 100, { at: T0 })
    for (let ticks = 0; ticks < 4; ticks++) await stream.tick(T0)
    expect(seen).toHaveLength(100)
    const records = await stream.inside((_, state) => state.storage.sql.exec("SELECT slot, seq FROM claims").toArray())
    expect(records).toEqual([{ slot: 0, seq: 4 }])
  })
})

describe("rows written", () => {
  it("by a batch of 32 one-shots: the claim record, then the 32 rows, one retention-journal row and the history's row", async () => {
    const stream = openStream("written-once")
    await upsertMany(stream, 32, { at: T0 })
    const counts = await stream.inside((instance) => {
      const store = instance.storeForTests()
      let claims: ReturnType<typeof claimDue> = []
      const claim = written(store, () => {
        claims = claimDue(store, T0, 32, lease)
      })
      const settle = written(store, () =>
        settleAll(
          store,
          stream.name,
          claims.map(({ claim }) => delivered(claim)),
        ),
      )
      return { claim, settle }
    })
    // The history's minute row (rollup-store.ts) is the settlement's too: one a batch.
    expect(counts).toEqual({ claim: 1, settle: 32 + 1 + 1 })
  })

  it("by a batch of 32 recurring deliveries: the claim record, then each row and its due-index entry, and the history's row", async () => {
    const stream = openStream("written-every")
    await upsertMany(stream, 32, { every: "1 hour" })
    const counts = await stream.inside((instance) => {
      const store = instance.storeForTests()
      const now = T0 + 3_600 * SECOND
      let claims: ReturnType<typeof claimDue> = []
      const claim = written(store, () => {
        claims = claimDue(store, now, 32, lease)
      })
      const answers = claims.map(({ claim }) => ({ ...delivered(claim), now }))
      const settle = written(store, () => settleAll(store, stream.name, answers))
      return { claim, settle }
    })
    expect(counts).toEqual({ claim: 1, settle: 32 * 2 + 1 })
  })

  it("by a one-shot alone in its tick: its claim record, its row, its journal row, the history's row; the directory's entry costs none", async () => {
    const stream = openStream("written-lone")
    value(await stream.upsert({ id: "tomorrow", consumer: "test.scripted", at: T0 + 86_400 * SECOND }))
    value(await stream.upsert({ id: "alone", consumer: "test.scripted", at: T0 }))
    // The alarm moves from T0 to tomorrow: the D1 directory is written, the stream's storage only for the delivery.
    expect(await stream.tick(T0)).toMatchObject({ delivered: 1, alarm: T0 + 86_400 * SECOND, rowsWritten: 4 })
    const directory = await env.DB.prepare("SELECT next_eligible_at AS at FROM schedule_streams WHERE name = ?")
      .bind(stream.name)
      .first("at")
    expect(directory).toBe(T0 + 86_400 * SECOND)
  })

  it("by a schedule created: its row (its event on it) and its due-index entry", async () => {
    const stream = openStream("written-created")
    value(await stream.upsert({ id: "warm", consumer: "test.scripted", at: T0 }))
    const counts = await stream.inside((instance) => {
      const store = instance.storeForTests()
      return Array.from({ length: 5 }, (_, i) =>
        written(store, () =>
          store.transaction(() => {
            const spec = {
              ...{ id: `c${i}`, consumer: "test.scripted", payload: "null", maxAttempts: null },
              ...{ startAt: null, endAt: null, times: null, jitterMs: null },
            }
            store.apply(
              core.upsert(undefined, { ...spec, timing: { kind: "at", atMs: T0 + i } }, T0, i) as core.Change,
              T0,
            )
          }),
        ),
      )
    })
    expect(counts).toEqual([2, 2, 2, 2, 2])
  })
})
