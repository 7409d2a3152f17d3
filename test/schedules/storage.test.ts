import { env, evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it, type MockInstance, vi } from "vitest"
import { RECOVERY_FIRST_MS } from "../../src/infra/backoff.ts"
import { LIST_DEFAULT } from "../../src/infra/schedules/client/contract.ts"
import { RECORD_RETRY_MS } from "../../src/infra/schedules/directory/recorder.ts"
import { EVENT_LOG_LIMIT } from "../../src/infra/schedules/index.ts"
import type { ScheduleRow } from "../../src/infra/schedules/stream/row.ts"
import { SCHEMA_VERSION, ScheduleStore } from "../../src/infra/schedules/stream/store.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { failingD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, RETAINED, SECOND, storageAt, T0, value } from "../support/streams.ts"

const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

const logs = captureLogs()
beforeEach(resetConsumers)

/**
 * A tick's clock is the injected time plus the real time elapsed inside it, so a recovery
 * alarm armed after a failure sits at `at + delay` plus those few milliseconds.
 */
const expectArmedAfter = (alarm: number | null, at: number, delayMs: number) => {
  expect(alarm).toBeGreaterThanOrEqual(at + delayMs)
  expect(alarm).toBeLessThan(at + delayMs + 250)
}

describe("storage failures", () => {
  it("arm one recovery alarm at 1 s, 2 s, then 4 s, and the due row is delivered after recovery", async () => {
    const stream = openStream("recovery")
    const due = T0 + MINUTE
    value(await stream.upsert({ id: "nudge", consumer: "test.scripted", at: due }))
    const failSelection = () =>
      stream.inside((instance) =>
        vi.spyOn(instance.storeForTests(), "selectDue").mockImplementation(() => {
          throw new Error("SQLITE_IOERR: simulated")
        }),
      )

    let failing: MockInstance = await failSelection()
    const first = await stream.tick(due)
    expect(first).toMatchObject({ error: "Error: SQLITE_IOERR: simulated", claimed: 0, delivered: 0 })
    expectArmedAfter(first.alarm, due, 1_000)
    expect(await stream.alarm()).toBe(first.alarm)

    const retryAt = first.alarm as number
    const second = await stream.tick(retryAt)
    expect(second).toMatchObject({ error: "Error: SQLITE_IOERR: simulated", claimed: 0, delivered: 0 })
    expectArmedAfter(second.alarm, retryAt, 2_000)
    expect(await stream.alarm()).toBe(second.alarm)

    // Doubling, not a fixed step: the third wait is 4 s.
    const third = await stream.tick(second.alarm as number)
    expect(third.error).toBe("Error: SQLITE_IOERR: simulated")
    expectArmedAfter(third.alarm, second.alarm as number, 4_000)
    expect(await stream.alarm()).toBe(third.alarm)

    const failure = { level: "error", error: "Error: SQLITE_IOERR: simulated" }
    expect(logs.of("schedule stream onError")).toEqual([
      expect.objectContaining({ ...failure, recoveryInMs: 1_000 }),
      expect.objectContaining({ ...failure, recoveryInMs: 2_000 }),
      expect.objectContaining({ ...failure, recoveryInMs: 4_000 }),
    ])
    expect(failing).toHaveBeenCalledTimes(3)
    expect(seen).toHaveLength(0)
    expect(value(await stream.get("nudge"))).toMatchObject({ state: "scheduled", attempts: 0, claimUntil: null })

    failing.mockRestore()
    const recovered = await stream.tick(third.alarm as number)
    expect(recovered).toMatchObject({ claimed: 1, delivered: 1, alarm: (third.alarm as number) + RETAINED })
    expect(recovered.error).toBeUndefined()
    expect(seen.map(({ delivery }) => delivery.scheduleId)).toEqual(["nudge"])
    expect(value(await stream.get("nudge")).state).toBe("completed")
    expect(await stream.alarm()).toBe((third.alarm as number) + RETAINED)
    expect(logs.of("schedule stream onError")).toHaveLength(3)

    // A success resets the delay: the next failure waits 1 s again, not 4 s.
    value(await stream.upsert({ id: "later", consumer: "test.scripted", at: due + HOUR }))
    failing = await failSelection()
    const again = await stream.tick(due + HOUR)
    expectArmedAfter(again.alarm, due + HOUR, RECOVERY_FIRST_MS)
    expect(logs.of("schedule stream onError").at(-1)).toMatchObject({ recoveryInMs: 1_000 })
    failing.mockRestore()
  })

  it("refuse a stored schema version newer than the code, on every call, without throwing", async () => {
    const stream = openStream("future-schema")
    value(await stream.upsert({ id: "kept", consumer: "test.scripted", every: "1 hour" }))
    await stream.inside((_, state) => {
      state.storage.sql.exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    })
    const before = await stream.snapshot()
    await evictDurableObject(stream.stub)

    const unavailable = {
      ok: false,
      error: {
        code: "unavailable",
        message: expect.stringContaining(`schema version 99, newer than this code's ${SCHEMA_VERSION}`),
      },
    }
    expect(await stream.get("kept")).toEqual(unavailable)
    expect(await stream.upsert({ id: "new", consumer: "test.scripted", every: "1 hour" })).toEqual(unavailable)
    expect(await stream.list()).toEqual(unavailable)
    expect(await stream.cancel("kept")).toEqual(unavailable)
    expect(logs.of("schedule stream refused its storage")).toHaveLength(1)

    const report = await stream.tick(T0 + HOUR)
    expect(report.error).toMatch(/^SchemaVersionError: .*schema version 99/)
    expect(report).toMatchObject({ claimed: 0, delivered: 0 })
    expect(seen).toHaveLength(0)

    // Nothing was migrated down, overwritten or delivered.
    expect(await stream.snapshot()).toBe(before)
    const version = await stream.inside(
      (_, state) => state.storage.sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").one().value,
    )
    expect(version).toBe("99")
  })
})

describe("event log", () => {
  it("keeps exactly EVENT_LOG_LIMIT events as a ring: one row written per event, nothing pruned", async () => {
    const stream = openStream("event-log")
    value(await stream.upsert({ id: "chatty", consumer: "test.scripted", every: "1 hour" }))
    const extra = 250

    // Stores of their own on the object's storage; the object is evicted before it writes again.
    const measured = await stream.inside((_, state) => {
      const store = new ScheduleStore(state.storage)
      const draft = { type: "schedule/set" as const, scheduleId: "chatty", data: { cause: "test" } }
      store.transaction(() => {
        for (let i = 0; i < EVENT_LOG_LIMIT + extra; i++) store.append([draft], T0)
      })
      const counted = (work: (on: ScheduleStore) => void, on = store) => {
        const before = { ...on.counts }
        work(on)
        return {
          rowsWritten: on.counts.rowsWritten - before.rowsWritten,
          rowsRead: on.counts.rowsRead - before.rowsRead,
        }
      }
      const warm = counted((on) => on.transaction(() => on.append([draft], T0)))
      // A new object (after an eviction) finds the newest seq by point reads, never a scan of the log.
      const cold = counted((on) => on.transaction(() => on.append([draft], T0)), new ScheduleStore(state.storage))
      return {
        warm,
        cold,
        log: state.storage.sql.exec("SELECT count(*) AS n, min(seq) AS oldest, max(seq) AS newest FROM events").one(),
      }
    })
    await evictDurableObject(stream.stub)
    // 1 (upsert) + LIMIT + extra + 2 appended; the oldest were overwritten in place.
    const appended = EVENT_LOG_LIMIT + extra + 3
    expect(measured.log).toEqual({ n: EVENT_LOG_LIMIT, oldest: appended - EVENT_LOG_LIMIT + 1, newest: appended })
    expect(measured.warm).toEqual({ rowsWritten: 1, rowsRead: 1 })
    expect(measured.cold.rowsWritten).toBe(1)
    expect(measured.cold.rowsRead).toBeLessThanOrEqual(16)

    // The ordinary path keeps the bound too, and reads page newest first across the ring's seam.
    value(await stream.upsert({ id: "chatty", consumer: "test.scripted", every: "2 hours" }, T0 + MINUTE))
    expect(await stream.counts()).toMatchObject({ events: EVENT_LOG_LIMIT })
    const newest = value(await stream.events({ limit: undefined }))
    expect(newest).toHaveLength(LIST_DEFAULT)
    expect(newest[0]).toMatchObject({ seq: appended + 1, type: "schedule/set", data: { cause: "retimed" } })
    const seam = (appended + 1) % EVENT_LOG_LIMIT
    const across = value(await stream.events({ limit: 500, before: appended + 1 - seam + 100 }))
    expect(across.map((event) => event.seq)).toEqual(
      Array.from({ length: 500 }, (_, i) => appended + 1 - seam + 99 - i),
    )
  })

  it("filters one schedule's events newest first", async () => {
    const stream = openStream("event-filter")
    for (const id of ["a", "b", "a", "b", "a"]) {
      value(await stream.upsert({ id, consumer: "test.scripted", every: `${id === "a" ? 1 : 2} hour` }))
      value(await stream.cancel(id))
    }
    const ofA = value(await stream.events({ scheduleId: "a", limit: 4 }))
    expect(ofA.map((event) => [event.scheduleId, event.type])).toEqual([
      ["a", "schedule/cancelled"],
      ["a", "schedule/set"],
      ["a", "schedule/cancelled"],
      ["a", "schedule/set"],
    ])
    expect(ofA.map((event) => event.seq)).toEqual([...ofA.map((event) => event.seq)].sort((x, y) => y - x))
  })
})

describe("schema migration", () => {
  it("moves version 1 storage to the event ring, keeping schedules, claims and the newest events", async () => {
    const stream = openStream("from-v1")
    const result = await stream.inside((_, state) => {
      const sql = state.storage.sql
      storageAt(sql, stream.name, 1)
      sql.exec(
        `INSERT INTO schedules (id, consumer, kind, at_ms, payload, state, occurrence, next_at, cadence_at,
           claim_until, claim_token, attempts, created_at, updated_at)
         VALUES ('held', 'test.scripted', 'at', ?, '{"n":1}', 'scheduled', 1, ?, ?, ?, 'token-1', 1, ?, ?)`,
        T0,
        T0,
        T0,
        T0 + MINUTE,
        T0,
        T0,
      )
      // Version 1 pruned from the bottom, so its seqs are contiguous: 7..10,256 of them here.
      sql.exec(
        `WITH RECURSIVE n(i) AS (SELECT 7 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO events (seq, at, schedule_id, type, data) SELECT i, ?, 'held', 'schedule/set', json_object('i', i) FROM n`,
        EVENT_LOG_LIMIT + 256,
        T0,
      )
      const before = sql.exec("SELECT * FROM schedules").toArray()
      const store = new ScheduleStore(state.storage)
      store.migrate()
      store.transaction(() => store.append([{ type: "schedule/set", scheduleId: "held", data: { i: "next" } }], T0))
      return {
        before,
        after: sql.exec("SELECT * FROM schedules").toArray(),
        version: store.meta("schema_version"),
        log: sql.exec("SELECT count(*) AS n, min(seq) AS oldest, max(seq) AS newest FROM events").one(),
        indexes: sql.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'").toArray(),
        newest: store.events({ limit: 3 }).map((event) => [event.seq, event.data]),
      }
    })
    // Version 3 adds finished_at, null for a row still scheduled; version 4 the incarnation, null: the row keeps its keys.
    expect(result.after).toEqual(result.before.map((row) => ({ ...row, finished_at: null, incarnation: null })))
    expect(result.version).toBe(String(SCHEMA_VERSION))
    const last = EVENT_LOG_LIMIT + 256
    expect(result.log).toEqual({ n: EVENT_LOG_LIMIT, oldest: last + 2 - EVENT_LOG_LIMIT, newest: last + 1 })
    expect(result.indexes).toEqual([])
    expect(result.newest).toEqual([
      [last + 1, { i: "next" }],
      [last, { i: last }],
      [last - 1, { i: last - 1 }],
    ])
    // The claim migrated with its row: the schedule is still fenced until its lease ends.
    expect(value(await stream.get("held"))).toMatchObject({ state: "scheduled", attempts: 1 })
  })
})

describe("rows read back", () => {
  it("every field of a row, through each read (one, many, due, list), column by column", async () => {
    const stream = openStream("round-trip")
    const read = await stream.inside((_, state) => {
      const store = new ScheduleStore(state.storage)
      // Each field a value no other field has, so a column read into the wrong field shows.
      const row: ScheduleRow = {
        id: "round-trip-1",
        consumer: "test.scripted",
        kind: "cron",
        atMs: T0 + 1,
        intervalMs: 2,
        cron: "0 9 * * *",
        timezone: "Europe/Paris",
        payload: '{"n":3}',
        maxAttempts: 4,
        state: "scheduled",
        occurrence: 5,
        nextAt: T0 + 6,
        cadenceAt: T0 + 7,
        retryAt: T0 + 8,
        claimUntil: T0 + 9,
        claimToken: "token-10",
        attempts: 11,
        lastError: "error 12",
        createdAt: T0 + 13,
        updatedAt: T0 + 14,
        finishedAt: T0 + 15,
        incarnation: 2 ** 48 - 16,
      }
      // A row stored before incarnations reads back null.
      const other = { ...row, id: "round-trip-2", finishedAt: null, incarnation: null }
      store.transaction(() => {
        store.put(row)
        store.put(other)
      })
      return {
        one: store.get(row.id),
        many: [...store.getMany([row.id, other.id]).values()],
        due: store.selectDue(T0 + 60_000, 10),
        list: store.list({ limit: 10 }),
        row,
        other,
      }
    })
    expect(read.one).toEqual(read.row)
    expect(read.many).toEqual(expect.arrayContaining([read.row, read.other]))
    expect(read.many).toHaveLength(2)
    expect(read.due).toEqual([read.row, read.other])
    expect(read.list).toEqual([read.row, read.other])
  })
})

describe("D1 directory", () => {
  const directoryRow = (name: string) =>
    env.DB.prepare("SELECT name, listed_at FROM schedule_streams WHERE name = ?").bind(name).first()

  it("lists a stream on its first upsert", async () => {
    const stream = openStream("listed")
    expect(await directoryRow(stream.name)).toBeNull()
    value(await stream.upsert({ id: "one", consumer: "test.scripted", every: "1 hour" }))
    expect(await directoryRow(stream.name)).toEqual({ name: stream.name, listed_at: T0 })
  })

  it("keeps an upsert working through a D1 outage, and its alarm lists the stream once D1 answers", async () => {
    const stream = openStream("d1-outage")
    const definition = { id: "one", consumer: "test.scripted", every: "1 hour" }
    const useDatabase = (db: D1Database) => stream.inside((instance) => instance.useDatabase(db))
    const outage = failingD1(env.DB)
    await useDatabase(outage.db)

    const reply = await stream.upsert(definition)
    expect(reply).toMatchObject({ ok: true, value: { id: "one", state: "scheduled", nextAt: T0 + HOUR } })
    expect(await stream.row("one")).toMatchObject({ id: "one", state: "scheduled", next_at: T0 + HOUR })
    expect(outage.calls.length).toBeGreaterThan(0)
    expect(await directoryRow(stream.name)).toBeNull()
    expect(logs.of("schedule stream alarm not recorded in the directory")).toEqual([
      expect.objectContaining({ level: "warn", stream: stream.name, error: expect.stringContaining("D1_ERROR") }),
    ])
    // The listing is owed: the stream's alarm comes back for it.
    expect(await stream.alarm()).toBe(T0 + RECORD_RETRY_MS)

    await useDatabase(env.DB)
    const before = await stream.snapshot()
    expect(await stream.tick(T0 + RECORD_RETRY_MS)).toMatchObject({ claimed: 0, alarm: T0 + HOUR })
    expect(await stream.snapshot()).toBe(before)
    expect(await directoryRow(stream.name)).toEqual({ name: stream.name, listed_at: T0 + RECORD_RETRY_MS })
    expect(await stream.alarm()).toBe(T0 + HOUR)

    // Once listed, an upsert that leaves the alarm where it was asks D1 nothing, so an outage goes unnoticed.
    const laterOutage = failingD1(env.DB)
    await useDatabase(laterOutage.db)
    value(await stream.upsert({ ...definition, id: "two" }, T0 + 2 * MINUTE))
    expect(laterOutage.calls).toEqual([])
    expect(logs.of("schedule stream alarm not recorded in the directory")).toHaveLength(1)
    await useDatabase(env.DB)
  })
})

describe("idle", () => {
  it("an idle tick writes no row, and re-arming the same alarm does not rewrite it", async () => {
    const stream = openStream("idle")
    const definition = { id: "hourly", consumer: "test.scripted", every: "1 hour" }
    value(await stream.upsert(definition))
    expect(await stream.alarm()).toBe(T0 + HOUR)
    const before = await stream.snapshot()

    const alarms = await stream.inside((_, state) => ({
      set: vi.spyOn(state.storage, "setAlarm"),
      deleted: vi.spyOn(state.storage, "deleteAlarm"),
      transactions: vi.spyOn(state.storage, "transactionSync"),
    }))
    try {
      const report = await stream.tick(T0 + MINUTE)
      expect(report).toMatchObject({ claimed: 0, delivered: 0, rowsWritten: 0, alarm: T0 + HOUR })
      expect(report.error).toBeUndefined()
      expect(report.rowsRead).toBeLessThanOrEqual(4)
      // ADR 0202: an idle tick opens no write transaction at all.
      expect(alarms.transactions).not.toHaveBeenCalled()
      value(await stream.upsert(definition, T0 + 2 * MINUTE))
      expect(await stream.tick(T0 + 3 * MINUTE)).toMatchObject({ rowsWritten: 0, alarm: T0 + HOUR })

      expect(alarms.set).not.toHaveBeenCalled()
      expect(alarms.deleted).not.toHaveBeenCalled()
      expect(await stream.snapshot()).toBe(before)
      expect(await stream.alarm()).toBe(T0 + HOUR)
      expect(seen).toHaveLength(0)

      // The spies do see the alarm: moving the smallest eligible_at rewrites it, once.
      value(await stream.trigger("hourly", T0 + 4 * MINUTE))
      expect(alarms.set).toHaveBeenCalledTimes(1)
      expect(alarms.set).toHaveBeenCalledWith(T0 + 4 * MINUTE)
      // And a tick with something due does open its transactions: the claim and the settlement.
      alarms.transactions.mockClear()
      expect(await stream.tick(T0 + 4 * MINUTE)).toMatchObject({ delivered: 1 })
      expect(alarms.transactions).toHaveBeenCalledTimes(2)
    } finally {
      alarms.set.mockRestore()
      alarms.deleted.mockRestore()
      alarms.transactions.mockRestore()
    }
  })
})
