import { beforeEach, describe, expect, it, vi } from "vitest"
import {
  bucketOf,
  HOUR_MS,
  HOURS_KEPT,
  LATE_BOUNDS,
  MINUTE_MS,
  MINUTES_KEPT,
  quantileOf,
  type Tally,
} from "../../src/infra/schedules/stream/rollup.ts"
import { BATCH_SIZE } from "../../src/infra/schedules/stream/tick.ts"
import { resetConsumers, script } from "../support/consumers.ts"
import { openStream, stubOf, T0, type TestStream, value } from "../support/streams.ts"

const DAY = 24 * HOUR_MS

beforeEach(() => resetConsumers())

const tableRows = (stream: TestStream, table: "delivery_minutes" | "delivery_hours") =>
  stream.inside((_, state) => state.storage.sql.exec(`SELECT * FROM ${table}`).toArray())

/** `count` one-shots due at `due`, all claimed by one tick at `at` (a batch of at most BATCH_SIZE). */
async function oneShots(stream: TestStream, ids: readonly string[], due: number) {
  for (const id of ids) value(await stream.upsert({ id, consumer: "test.scripted", at: due }, due - MINUTE_MS))
}

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`)

describe("a stream's history of deliveries", () => {
  it("adds a batch of 32 to its minute in one row written, whatever the batch's size", async () => {
    const stream = openStream("history-batch")
    await oneShots(stream, ids("a", BATCH_SIZE), T0)
    const written = await stream.inside(async (instance) => {
      const store = instance.storeForTests()
      const exec = store.exec.bind(store)
      let rows = 0
      // The rows each statement on the history's tables wrote, from the store's own counters.
      vi.spyOn(store, "exec").mockImplementation((query, ...bindings) => {
        const before = store.counts.rowsWritten
        const result = exec(query, ...bindings)
        if (/delivery_(minutes|hours)/.test(query)) rows += store.counts.rowsWritten - before
        return result
      })
      instance.setNow(T0 + 1_500)
      const report = await instance.tick()
      vi.restoreAllMocks()
      return { rows, delivered: report.delivered }
    })
    expect(written).toEqual({ rows: 1, delivered: BATCH_SIZE })
    const [minute] = await tableRows(stream, "delivery_minutes")
    expect(minute).toMatchObject({ minute: T0, delivered: BATCH_SIZE, retried: 0, failed: 0, late_max: 1_500 })
    expect(minute?.[`l${bucketOf(1_500)}`]).toBe(BATCH_SIZE)
  })

  it("counts a backfill's deliveries as delivered, never as lateness (they are hours old on purpose)", async () => {
    const stream = openStream("history-backfill")
    value(await stream.upsert({ id: "h", consumer: "test.scripted", every: "1 hour" }, T0 - MINUTE_MS))
    // The live schedule catches up first, in a minute of its own.
    await stream.tick(T0 + 20 * HOUR_MS)
    const later = T0 + 20 * HOUR_MS + 2 * MINUTE_MS
    await stream.setNow(later)
    const answer = value(
      await stubOf(stream.name).backfill(stream.name, "h", { from: T0 - 18 * HOUR_MS, to: T0 + 6 * HOUR_MS }),
    )
    expect(answer.backfill.count).toBeGreaterThanOrEqual(2)
    expect(await stream.tick(later)).toMatchObject({ delivered: answer.backfill.count })
    const point = value(await stream.history("day")).points.find((p) => p.at === later)
    // Delivered, and shown apart as backfilled; but not "late up to 18 h": a backfill's age is not lateness.
    expect(point).toEqual({
      at: later,
      delivered: answer.backfill.count,
      backfilled: answer.backfill.count,
      retried: 0,
      failed: 0,
      lateMedianMs: null,
      lateP99Ms: null,
      lateMaxMs: null,
    })
    // The hour's point sums its minutes: the live catch-up's deliveries are timed, the backfill's stay apart.
    const hours = value(await stream.history("month")).points
    expect(hours.reduce((n, p) => n + p.backfilled, 0)).toBe(answer.backfill.count)
    expect(hours.reduce((n, p) => n + p.delivered - p.backfilled, 0)).toBeGreaterThan(0)
  })

  it("counts retries, failures and each delivery's lateness, and answers them per minute", async () => {
    const stream = openStream("history-outcomes")
    await oneShots(stream, ["late-1", "late-2", "late-3", "retries", "fails"], T0)
    script.set("retries", ["retry"])
    script.set("fails", ["terminal"])
    expect(await stream.tick(T0 + 40)).toMatchObject({ delivered: 3, retried: 1, failed: 1 })
    // The retry comes back a second later, in the next minute: delivered 61 s late.
    expect(await stream.tick(T0 + 61_000)).toMatchObject({ delivered: 1 })
    const history = value(await stream.history("day"))
    expect(history).toMatchObject({ stream: stream.name, now: T0 + 61_000, range: "day", stepMs: MINUTE_MS })
    expect(history.points).toEqual([
      { at: T0, delivered: 3, backfilled: 0, retried: 1, failed: 1, lateMedianMs: 40, lateP99Ms: 40, lateMaxMs: 40 },
      {
        at: T0 + MINUTE_MS,
        delivered: 1,
        backfilled: 0,
        retried: 0,
        failed: 0,
        lateMedianMs: 61_000,
        lateP99Ms: 61_000,
        lateMaxMs: 61_000,
      },
    ])
  })

  it("refuses a range it does not keep, naming the field", async () => {
    const stream = openStream("history-range")
    const reply = await stream.history("week" as never)
    expect(reply).toMatchObject({ ok: false, error: { code: "invalid", field: "range" } })
  })

  it("reads median and p99 from the histogram: each its bucket's bound, never above the max", () => {
    const buckets = LATE_BOUNDS.map(() => 0)
    for (const ms of [3, 3, 7, 7, 7, 90, 90, 90, 90, 4_000]) buckets[bucketOf(ms)] = (buckets[bucketOf(ms)] ?? 0) + 1
    expect(quantileOf(buckets, 0.5, 4_000)).toBe(10)
    expect(quantileOf(buckets, 0.99, 4_000)).toBe(4_000)
    expect(quantileOf(buckets, 0.99, 3_000)).toBe(3_000)
    expect(
      quantileOf(
        LATE_BOUNDS.map(() => 0),
        0.5,
        0,
      ),
    ).toBeNull()
    expect(bucketOf(7 * DAY)).toBe(LATE_BOUNDS.length - 1)
  })
})

/** A tally of `delivered` deliveries each `lateMs` late, and one retry, settled at `at`. */
const tally = (at: number, delivered: number, lateMs: number): Tally => ({
  at,
  delivered,
  retried: 1,
  failed: 0,
  late: Array.from({ length: delivered }, () => lateMs),
})

describe("the history's bounds", () => {
  it("keeps at most a day of minutes and 30 days of hours, and answers every batch of the month", async () => {
    const stream = openStream("history-bounds")
    value(await stream.upsert({ id: "bound", consumer: "test.scripted", every: "1 hour" }))
    const step = 7 * MINUTE_MS
    const end = T0 + 40 * DAY
    const result = await stream.inside((instance) => {
      const store = instance.storeForTests()
      const most = { minutes: 0, hours: 0 }
      const count = (table: string) => Number(store.exec(`SELECT count(*) AS n FROM ${table}`)[0]?.n)
      for (let at = T0, n = 0; at < end; at += step, n++) {
        store.transaction(() => store.rollup.add(tally(at, 1 + (n % 5), 10 * (n % 7))))
        if (n % 97 === 0) {
          most.minutes = Math.max(most.minutes, count("delivery_minutes"))
          most.hours = Math.max(most.hours, count("delivery_hours"))
        }
      }
      return { most, month: store.rollup.read("month", end), day: store.rollup.read("day", end) }
    })
    expect(result.most.minutes).toBeLessThanOrEqual(MINUTES_KEPT)
    expect(result.most.hours).toBeLessThanOrEqual(HOURS_KEPT)
    expect(result.most.hours).toBeGreaterThan(HOURS_KEPT - 30)

    // What went in, by hour and by minute, within the month's and the day's window.
    const expected = new Map<number, { delivered: number; retried: number }>()
    const minutes: number[] = []
    const since = Math.floor(end / HOUR_MS) * HOUR_MS - (HOURS_KEPT - 1) * HOUR_MS
    for (let at = T0, n = 0; at < end; at += step, n++) {
      const hour = Math.floor(at / HOUR_MS) * HOUR_MS
      if (at > end - DAY) minutes.push(at)
      if (hour < since) continue
      const sums = expected.get(hour) ?? { delivered: 0, retried: 0 }
      expected.set(hour, { delivered: sums.delivered + 1 + (n % 5), retried: sums.retried + 1 })
    }
    expect(result.month.map(({ at, delivered, retried }) => ({ at, delivered, retried }))).toEqual(
      [...expected].map(([at, sums]) => ({ at, ...sums })),
    )
    expect(result.day.map((point) => point.at)).toEqual(minutes)
  })

  it("folds an hour reading only its ring slots through the key, and writes nothing to fold when the hour has not changed", async () => {
    const stream = openStream("history-fold")
    value(await stream.upsert({ id: "fold", consumer: "test.scripted", every: "1 hour" }))
    const result = await stream.inside((instance, state) => {
      const store = instance.storeForTests()
      for (let m = 0; m < 120; m++) store.transaction(() => store.rollup.add(tally(T0 + m * MINUTE_MS, 1, 5)))
      const queries: string[] = []
      const exec = vi.spyOn(state.storage.sql, "exec")
      const before = { ...store.counts }
      store.transaction(() => store.rollup.add(tally(T0 + 2 * HOUR_MS, 1, 5)))
      const cost = {
        read: store.counts.rowsRead - before.rowsRead,
        written: store.counts.rowsWritten - before.rowsWritten,
      }
      for (const [query] of exec.mock.calls as unknown as Array<[string]>) queries.push(query)
      exec.mockRestore()
      const fold = queries.find((query) => query.includes("INSERT INTO delivery_hours")) as string
      const plan = state.storage.sql
        .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${fold}`, 0, 1, 2, 3, 0, 1)
        .toArray()
        .map((row) => row.detail)
      const same = { ...store.counts }
      store.transaction(() => store.rollup.add(tally(T0 + 2 * HOUR_MS + MINUTE_MS, 1, 5)))
      return { cost, plan, sameHour: store.counts.rowsWritten - same.rowsWritten }
    })
    // The 60 minutes of the hour before are read (SQLite counts them again as it groups them), not the
    // ring's 1,440; one hour row is written, and the batch's minute.
    expect(result.cost.read).toBeLessThanOrEqual(2 * 60 + 8)
    expect(result.cost.written).toBe(2)
    expect(result.plan.join("\n")).toMatch(/SEARCH delivery_minutes USING INTEGER PRIMARY KEY/)
    expect(result.plan.join("\n")).not.toMatch(/SCAN delivery_minutes/)
    expect(result.sameHour).toBe(1)
  })

  it("folds again what a rolled-back transaction folded", async () => {
    const stream = openStream("history-rollback")
    value(await stream.upsert({ id: "rollback", consumer: "test.scripted", every: "1 hour" }))
    const month = await stream.inside((instance) => {
      const store = instance.storeForTests()
      store.transaction(() => store.rollup.add(tally(T0, 4, 5)))
      expect(() =>
        store.transaction(() => {
          store.rollup.add(tally(T0 + HOUR_MS, 2, 5))
          throw new Error("the settlement's write failed")
        }),
      ).toThrow("the settlement's write failed")
      store.transaction(() => store.rollup.add(tally(T0 + HOUR_MS, 1, 5)))
      return store.rollup.read("month", T0 + HOUR_MS)
    })
    expect(month.map(({ at, delivered }) => ({ at, delivered }))).toEqual([
      { at: T0, delivered: 4 },
      { at: T0 + HOUR_MS, delivered: 1 },
    ])
    const hours = await tableRows(stream, "delivery_hours")
    expect(hours.map((row) => ({ hour: row.hour, delivered: row.delivered }))).toEqual([{ hour: T0, delivered: 4 }])
  })
})
