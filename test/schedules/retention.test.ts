import { evictDurableObject } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import { ScheduleDefinitionError } from "../../src/infra/schedules/contract/definition-error.ts"
import { MAX_RETENTION_MS } from "../../src/infra/schedules/contract/limits.ts"
import { ScheduleStateError, Schedules } from "../../src/infra/schedules/index.ts"
import { SWEEP_BATCH } from "../../src/infra/schedules/stream/retention.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import {
  eventsOf,
  openStream,
  RETAINED,
  SECOND,
  storageAt,
  storedRow,
  T0,
  type TestStream,
  value,
} from "../support/streams.ts"

const MINUTE = 60 * SECOND
const DAY = 24 * 60 * MINUTE

beforeEach(() => resetConsumers())

const listed = async (name: string) =>
  (await env.DB.prepare("SELECT 1 FROM schedule_streams WHERE name = ?").bind(name).first()) !== null

const rowCount = async (stream: TestStream) => (await stream.counts()).schedules

/** `count` one-shots due at `due`, delivered by ticks at that time. */
async function deliverOneShots(stream: TestStream, count: number, due: number, options = {}) {
  for (let i = 0; i < count; i++) {
    value(await stream.upsert({ id: `once-${i}`, consumer: "test.scripted", at: due }, due - MINUTE, options))
  }
  let delivered = 0
  while (delivered < count) delivered += (await stream.tick(due)).delivered
}

describe("retention of finished schedules", () => {
  it("deletes them 7 days after they finished, in bounded batches on the stream's own alarm, then forgets the stream", async () => {
    const stream = openStream("retained")
    const count = SWEEP_BATCH + 36
    await deliverOneShots(stream, count, T0)
    expect(await rowCount(stream)).toBe(count)
    expect(await listed(stream.name)).toBe(true)
    // Nothing else is scheduled: the one alarm waits for the first finished row to leave the window.
    expect(await stream.alarm()).toBe(T0 + RETAINED)

    expect(await stream.tick(T0 + RETAINED - 1)).toMatchObject({ swept: 0, rowsWritten: 0 })
    expect(await rowCount(stream)).toBe(count)

    const first = await stream.tick(T0 + RETAINED)
    expect(first).toMatchObject({ swept: SWEEP_BATCH, alarm: T0 + RETAINED })
    expect(await rowCount(stream)).toBe(36)
    const second = await stream.tick(T0 + RETAINED)
    expect(second).toMatchObject({ swept: 36, alarm: null })
    expect(await rowCount(stream)).toBe(0)
    // A stream that holds nothing has no alarm and no directory entry; an upsert brings both back.
    expect(await stream.alarm()).toBeNull()
    expect(await listed(stream.name)).toBe(false)
    value(await stream.upsert({ id: "again", consumer: "test.scripted", at: T0 + 9 * DAY }, T0 + 8 * DAY))
    expect(await listed(stream.name)).toBe(true)
    expect(await stream.alarm()).toBe(T0 + 9 * DAY)
  })

  it("counts the window from when each row finished, whatever its state", async () => {
    const stream = openStream("finish-times")
    value(await stream.upsert({ id: "cancelled", consumer: "test.scripted", every: "1 hour" }))
    value(await stream.upsert({ id: "completed", consumer: "test.scripted", at: T0 + MINUTE }))
    value(await stream.upsert({ id: "live", consumer: "test.scripted", every: "1 day" }))
    value(await stream.cancel("cancelled", T0 + 2 * MINUTE))
    await stream.tick(T0 + MINUTE)
    expect((await storedRow(stream, "completed")).finished_at).toBe(T0 + MINUTE)
    expect((await storedRow(stream, "cancelled")).finished_at).toBe(T0 + 2 * MINUTE)
    expect((await storedRow(stream, "live")).finished_at).toBeNull()

    expect(await stream.tick(T0 + MINUTE + RETAINED)).toMatchObject({ swept: 1 })
    expect(await stream.row("completed")).toBeUndefined()
    expect(await stream.row("cancelled")).toBeDefined()
    expect(await stream.tick(T0 + 2 * MINUTE + RETAINED)).toMatchObject({ swept: 1 })
    expect(await stream.row("cancelled")).toBeUndefined()
    // A scheduled row is never swept, however old.
    expect(await storedRow(stream, "live")).toMatchObject({ state: "scheduled" })
  })

  it("keeps what the stream's caller asks: a shorter window, or none at all with 0", async () => {
    const stream = openStream("window")
    await deliverOneShots(stream, 3, T0, { retentionMs: DAY })
    expect(await stream.alarm()).toBe(T0 + DAY)
    expect(await stream.tick(T0 + DAY)).toMatchObject({ swept: 3 })

    const none = openStream("keep-none")
    value(
      await none.upsert({ id: "kept", consumer: "test.scripted", every: "1 hour" }, T0 - MINUTE, { retentionMs: 0 }),
    )
    await deliverOneShots(none, 2, T0)
    // The tick that finished them sweeps them: nothing finished stays.
    expect(await rowCount(none)).toBe(1)
    expect(await none.alarm()).toBe(T0 + 59 * MINUTE)
  })

  it("takes the window through the client, refusing one outside 0..366 days with the field named", async () => {
    expect(() => Schedules.stream(env.SCHEDULES, "bad-window", { retention: MAX_RETENTION_MS + 1 })).toThrow(
      ScheduleDefinitionError,
    )
    expect(() => Schedules.stream(env.SCHEDULES, "bad-window", { retention: "a week" as never })).toThrow(
      /retention must be/,
    )
    const stream = openStream("client-window")
    const client = Schedules.stream(env.SCHEDULES, stream.name, { retention: "1 day" })
    await client.upsert({ id: "soon", consumer: "test.scripted", at: new Date(Date.now() - MINUTE) })
    const stored = await stream.inside((_, state) =>
      state.storage.sql.exec("SELECT value FROM meta WHERE key = 'retention_ms'").one(),
    )
    expect(stored.value).toBe(String(DAY))
    // The stream refuses a bad window sent past the client too, writing nothing.
    const reply = await stream.upsert({ id: "x", consumer: "test.scripted", every: "1 hour" }, T0, { retentionMs: -1 })
    expect(reply).toMatchObject({ ok: false, error: { code: "invalid", field: "retention" } })
    expect(await stream.row("x")).toBeUndefined()
  })
})

describe("the retention journal", () => {
  const journal = (stream: TestStream) =>
    stream.inside((_, state) =>
      state.storage.sql
        .exec<{ at: number; ids: string }>("SELECT at, ids FROM finished ORDER BY at, tag")
        .toArray()
        .map(({ at, ids }) => [at, ids.split("\n").sort()] as const),
    )

  it("holds one row per settlement that finished a batch, and a sweep takes whole entries, then part of one", async () => {
    const stream = openStream("journal-batches")
    await deliverOneShots(stream, 100, T0)
    const entries = await journal(stream)
    expect(entries.map(([, ids]) => ids.length)).toEqual([32, 32, 32, 4])
    expect(entries.every(([at]) => at === T0)).toBe(true)

    // 64 a tick: two entries whole; then the third and the fourth.
    expect(await stream.tick(T0 + RETAINED)).toMatchObject({ swept: SWEEP_BATCH })
    expect((await journal(stream)).map(([, ids]) => ids.length)).toEqual([32, 4])
    expect(await stream.tick(T0 + RETAINED)).toMatchObject({ swept: 36 })
    expect(await journal(stream)).toEqual([])
  })

  it("lets a row go from its entry when it leaves the finish it records: resumed, cancelled again, removed", async () => {
    const stream = openStream("journal-exact")
    for (const id of ["a", "b"]) value(await stream.upsert({ id, consumer: "test.scripted", every: "1 hour" }))
    value(await stream.cancel("a", T0 + SECOND))
    value(await stream.cancel("b", T0 + SECOND))
    expect(await journal(stream)).toEqual([
      [T0 + SECOND, ["a"]],
      [T0 + SECOND, ["b"]],
    ])
    value(await stream.resume("a", T0 + 2 * SECOND))
    expect(await journal(stream)).toEqual([[T0 + SECOND, ["b"]]])
    value(await stream.cancel("a", T0 + 3 * SECOND))
    value(await stream.remove("b", T0 + 4 * SECOND))
    expect(await journal(stream)).toEqual([[T0 + 3 * SECOND, ["a"]]])
    // The alarm waits for what the journal holds, not for the entry that went.
    expect(await stream.alarm()).toBe(T0 + 3 * SECOND + RETAINED)
    // An idle tick at the old entry's time has nothing to sweep and writes nothing.
    expect(await stream.tick(T0 + SECOND + RETAINED)).toMatchObject({ swept: 0, rowsWritten: 0 })
  })
})

describe("remove", () => {
  it("deletes a finished or cancelled schedule now, with an event, and refuses a scheduled one", async () => {
    const stream = openStream("remove")
    value(await stream.upsert({ id: "live", consumer: "test.scripted", every: "1 hour" }))
    value(await stream.upsert({ id: "done", consumer: "test.scripted", at: T0 + MINUTE }))
    await stream.tick(T0 + MINUTE)

    const refused = await stream.remove("live", T0 + 2 * MINUTE)
    expect(refused).toMatchObject({ ok: false, error: { code: "conflict", message: expect.stringMatching(/cancel/) } })
    expect(await storedRow(stream, "live")).toMatchObject({ state: "scheduled" })

    expect(value(await stream.remove("done", T0 + 2 * MINUTE))).toMatchObject({ id: "done", state: "completed" })
    expect(await stream.row("done")).toBeUndefined()
    const [removed] = await eventsOf(stream, "done")
    expect(removed).toMatchObject({ type: "schedule/removed", data: { occurrence: 1, from: "completed" } })
    expect(await stream.remove("done")).toMatchObject({ ok: false, error: { code: "not_found", field: "id" } })

    value(await stream.cancel("live", T0 + 3 * MINUTE))
    value(await stream.remove("live", T0 + 3 * MINUTE))
    expect(await rowCount(stream)).toBe(0)
    expect(await listed(stream.name)).toBe(false)
  })

  it("is on the client: a scheduled schedule throws ScheduleStateError", async () => {
    const client = Schedules.stream(env.SCHEDULES, "client-remove")
    await client.upsert({ id: "a", consumer: "test.scripted", every: "1 hour" })
    await expect(client.remove("a")).rejects.toThrow(ScheduleStateError)
    await client.cancel("a")
    expect(await client.remove("a")).toMatchObject({ id: "a", state: "cancelled" })
    expect(await client.get("a")).toBeUndefined()
  })
})

describe("occurrences of a reused id", () => {
  it("continue while the finished row is kept, and start again at 1, under new keys, once it was deleted", async () => {
    const stream = openStream("reused")
    const once = (at: number) => ({ id: "ping", consumer: "test.scripted", at })
    const first = value(await stream.upsert(once(T0)))
    await stream.tick(T0)
    // Within the window: a new occurrence of the same row, so its key is new.
    value(await stream.upsert(once(T0 + DAY), T0 + MINUTE))
    await stream.tick(T0 + DAY)
    await stream.tick(T0 + DAY + RETAINED)
    expect(await stream.row("ping")).toBeUndefined()
    // After the row was deleted the id starts over at occurrence 1, as a new row: keys no earlier row had.
    const again = value(await stream.upsert(once(T0 + 9 * DAY), T0 + 8 * DAY + MINUTE))
    await stream.tick(T0 + 9 * DAY)
    const keys = seen.map((s) => s.delivery.idempotencyKey)
    expect(keys).toEqual([first.idempotencyKey, first.idempotencyKey.replace(/:1$/, ":2"), again.idempotencyKey])
    expect(again).toMatchObject({ occurrence: 1 })
    expect(new Set(keys).size).toBe(3)
  })
})

describe("schema version 3", () => {
  it("gives rows finished before it their last update as finish time, so they are swept in time", async () => {
    const stream = openStream("from-v2")
    await stream.inside((_, state) => {
      const sql = state.storage.sql
      storageAt(sql, stream.name, 2)
      const insert = `INSERT INTO schedules (id, consumer, kind, at_ms, payload, state, occurrence, next_at, cadence_at,
           attempts, created_at, updated_at) VALUES (?, 'test.scripted', 'at', ?, 'null', ?, 1, ?, ?, 0, ?, ?)`
      sql.exec(insert, "old-done", T0, "completed", T0, T0, T0, T0 + MINUTE)
      sql.exec(insert, "old-live", T0 + DAY, "scheduled", T0 + DAY, T0 + DAY, T0, T0)
    })
    // A fresh object migrates its storage on start.
    await evictDurableObject(stream.stub)
    expect(await stream.tick(T0 + 2 * MINUTE)).toMatchObject({ swept: 0 })
    expect(await storedRow(stream, "old-done")).toMatchObject({ finished_at: T0 + MINUTE })
    expect(await storedRow(stream, "old-live")).toMatchObject({ finished_at: null })
    expect(await stream.tick(T0 + MINUTE + RETAINED)).toMatchObject({ swept: 1 })
    expect(await stream.row("old-done")).toBeUndefined()
  })
})
