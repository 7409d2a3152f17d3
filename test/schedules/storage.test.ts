import { env, evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it, type MockInstance, vi } from "vitest"
import { RECOVERY_FIRST_MS } from "../../src/infra/backoff.ts"
import { EVENTS_PER_SCHEDULE } from "../../src/infra/schedules/contract/schedule-events.ts"
import * as core from "../../src/infra/schedules/stream/core/index.ts"
import { RECORD_RETRY_MS } from "../../src/infra/schedules/stream/directory-recorder.ts"
import { type ScheduleRow, specOf } from "../../src/infra/schedules/stream/row.ts"
import { SEQ_BLOCK } from "../../src/infra/schedules/stream/row-events.ts"
import { SCHEMA_VERSION, ScheduleStore } from "../../src/infra/schedules/stream/store.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { failingD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, RETAINED, SECOND, storageAt, T0, value } from "../support/streams.ts"

const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
/** The newest seq of the version 1 log the migration test builds. */
const LAST_V1_SEQ = 10_256

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

describe("a schedule's events", () => {
  it("keeps a schedule's newest EVENTS_PER_SCHEDULE events on its own row: an event writes no row of its own", async () => {
    const stream = openStream("history")
    value(await stream.upsert({ id: "chatty", consumer: "test.scripted", every: "1 hour" }))
    value(await stream.upsert({ id: "quiet", consumer: "test.scripted", every: "1 hour" }))
    const extra = 5
    const written = await stream.inside((instance) => {
      const store = instance.storeForTests()
      const rows: number[] = []
      for (let i = 0; i < EVENTS_PER_SCHEDULE + extra; i++) {
        const before = store.counts.rowsWritten
        store.transaction(() => {
          const row = store.get("chatty") as ScheduleRow
          const change = core.upsert(row, { ...specOf(row), payload: JSON.stringify({ i }) }, T0 + i, 0)
          if (core.changed(change)) store.apply(change, T0 + i, row)
        })
        rows.push(store.counts.rowsWritten - before)
      }
      return rows
    })
    // A new payload touches no indexed column: the row is the one row written, its event with it.
    expect(written).toEqual(Array(EVENTS_PER_SCHEDULE + extra).fill(1))

    const chatty = value(await stream.events({ scheduleId: "chatty", limit: 500 }))
    expect(chatty).toHaveLength(EVENTS_PER_SCHEDULE)
    expect(chatty[0]).toMatchObject({ at: T0 + EVENTS_PER_SCHEDULE + extra - 1, data: { cause: "updated" } })
    expect(chatty.map((event) => event.seq)).toEqual([...chatty.map((event) => event.seq)].sort((x, y) => y - x))
    // The oldest went, the creation with them; the other schedule's history is its own.
    expect(chatty.some((event) => event.data.cause === "created")).toBe(false)
    expect(value(await stream.events({ scheduleId: "quiet" })).map((event) => event.data.cause)).toEqual(["created"])
    expect(await stream.counts()).toMatchObject({ events: EVENTS_PER_SCHEDULE + 1 })
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

  it("pages the stream's events newest first across its schedules and the ones removed", async () => {
    const stream = openStream("event-feed")
    for (const id of ["a", "b", "c"]) value(await stream.upsert({ id, consumer: "test.scripted", every: "1 hour" }))
    value(await stream.cancel("b", T0 + SECOND))
    value(await stream.cancel("c", T0 + 2 * SECOND))
    value(await stream.remove("c", T0 + 3 * SECOND))
    value(await stream.upsert({ id: "a", consumer: "test.scripted", every: "2 hours" }, T0 + 4 * SECOND))
    const all = value(await stream.events({ limit: 500 }))
    expect(all.map((event) => [event.scheduleId, event.type])).toEqual([
      ["a", "schedule/set"],
      ["c", "schedule/removed"],
      ["c", "schedule/cancelled"],
      ["b", "schedule/cancelled"],
      ["c", "schedule/set"],
      ["b", "schedule/set"],
      ["a", "schedule/set"],
    ])
    expect(all.map((event) => event.seq)).toEqual([...all.map((event) => event.seq)].sort((x, y) => y - x))
    // Pages: each the next newest below the last seq seen.
    const first = value(await stream.events({ limit: 3 }))
    const second = value(await stream.events({ limit: 3, before: first.at(-1)?.seq as number }))
    expect([...first, ...second]).toEqual(all.slice(0, 6))
    // A removed schedule keeps its history, its removal last.
    expect(value(await stream.events({ scheduleId: "c" })).map((event) => event.type)).toEqual([
      "schedule/removed",
      "schedule/cancelled",
      "schedule/set",
    ])
  })

  it("numbers events on from a block reserved once per object life, never reusing a number", async () => {
    const stream = openStream("event-seqs")
    value(await stream.upsert({ id: "a", consumer: "test.scripted", every: "1 hour" }))
    value(await stream.cancel("a", T0 + SECOND))
    await evictDurableObject(stream.stub)
    value(await stream.resume("a", T0 + 2 * SECOND))
    const [resumed, cancelled, created] = value(await stream.events({ scheduleId: "a" }))
    expect((cancelled?.seq as number) - (created?.seq as number)).toBe(1)
    // The new object starts past the block the first one reserved.
    expect(resumed?.seq).toBe((created?.seq as number) + SEQ_BLOCK + 1)
  })
})

describe("schema migration", () => {
  it("moves version 1 storage on, keeping schedules, claims and each schedule's newest events", async () => {
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
        LAST_V1_SEQ,
        T0,
      )
      const before = sql.exec("SELECT * FROM schedules").toArray()
      const store = new ScheduleStore(state.storage)
      store.migrate()
      store.transaction(() => {
        const row = store.get("held") as ScheduleRow
        store.apply(core.upsert(row, { ...specOf(row), payload: '{"n":2}' }, T0, 0) as core.Change, T0, row)
      })
      return {
        before,
        after: sql.exec("SELECT * FROM schedules").toArray(),
        version: store.meta("schema_version"),
        tables: sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").toArray(),
        newest: store.events({ limit: 3 }).map((event) => [event.seq, event.data]),
        kept: store.events({ scheduleId: "held", limit: 500 }).length,
      }
    })
    // Version 3 adds finished_at, null for a row still scheduled; version 4 the incarnation, null: the row keeps
    // its keys; version 6 its events on it, its newest seq, no claim record over it; version 7 no window, count,
    // jitter, reason or parent, and nothing delivered.
    expect(result.after).toEqual(
      result.before.map((row) => ({
        ...row,
        payload: '{"n":2}',
        finished_at: null,
        incarnation: null,
        event_lines: expect.any(String),
        event_seq: LAST_V1_SEQ + 1,
        written_seq: 0,
        ...{ start_at: null, end_at: null, times: null, delivered: 0, jitter_ms: null },
        ...{ cancel_reason: null, backfill_of: null },
      })),
    )
    expect(result.version).toBe(String(SCHEMA_VERSION))
    expect(result.tables.map((table) => table.name)).toEqual([
      "claims",
      "delivery_hours",
      "delivery_minutes",
      "finished",
      "meta",
      "removed",
      "schedules",
    ])
    expect(result.kept).toBe(EVENTS_PER_SCHEDULE)
    expect(result.newest).toEqual([
      [LAST_V1_SEQ + 1, expect.objectContaining({ cause: "updated" })],
      [LAST_V1_SEQ, { i: LAST_V1_SEQ }],
      [LAST_V1_SEQ - 1, { i: LAST_V1_SEQ - 1 }],
    ])
    // The claim migrated with its row: the schedule is still fenced until its lease ends.
    expect(value(await stream.get("held"))).toMatchObject({ state: "scheduled", attempts: 1, claimUntil: T0 + MINUTE })
  })

  it("moves version 5 storage on with a claim in flight: it holds until its lease ends, then the occurrence goes out again", async () => {
    const stream = openStream("from-v5")
    await stream.inside((_, state) => {
      const sql = state.storage.sql
      storageAt(sql, stream.name, 5)
      const insert = `INSERT INTO schedules (id, consumer, kind, at_ms, interval_ms, payload, state, occurrence, next_at,
           cadence_at, claim_until, claim_token, attempts, created_at, updated_at, finished_at)
         VALUES (?, 'test.scripted', ?, ?, ?, 'null', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      // Claimed for its first attempt by the old code, whose delivery died with it.
      sql.exec(insert, "held", "at", T0, null, "scheduled", 1, T0, T0, T0 + MINUTE, "token-1", 1, T0, T0, null)
      sql.exec(insert, "live", "every", null, HOUR, "scheduled", 3, T0 + HOUR, T0 + HOUR, null, null, 0, T0, T0, null)
      sql.exec(
        insert,
        "done",
        "at",
        T0 - HOUR,
        null,
        "completed",
        1,
        T0 - HOUR,
        T0 - HOUR,
        null,
        null,
        0,
        T0,
        T0,
        T0 - HOUR,
      )
      const event = "INSERT INTO events (slot, seq, at, schedule_id, type, data) VALUES (? - 1, ?, ?, ?, ?, ?)"
      sql.exec(event, 1, 1, T0 - 2 * HOUR, "done", "schedule/set", '{"cause":"created"}')
      sql.exec(event, 2, 2, T0 - HOUR, "done", "schedule/fired", '{"occurrence":1}')
      sql.exec(event, 3, 3, T0 - HOUR, "gone", "schedule/removed", '{"occurrence":1}')
      sql.exec(event, 4, 4, T0, "held", "schedule/set", '{"cause":"created"}')
    })
    // A fresh object migrates its storage on start.
    await evictDurableObject(stream.stub)
    expect(value(await stream.get("held"))).toMatchObject({ attempts: 1, claimUntil: T0 + MINUTE })
    expect(await stream.tick(T0 + 30 * SECOND)).toMatchObject({ claimed: 0 })
    expect(await stream.tick(T0 + MINUTE + 1)).toMatchObject({ claimed: 1, delivered: 1 })
    expect(seen.map(({ delivery }) => [delivery.scheduleId, delivery.attempt])).toEqual([["held", 2]])
    expect(await stream.tick(T0 + HOUR)).toMatchObject({ claimed: 1, delivered: 1 })
    expect(seen.at(-1)?.delivery).toMatchObject({ scheduleId: "live", occurrence: 3 })
    // Each schedule's events on its row; a schedule removed before keeps its own; new ones number on.
    expect(value(await stream.events({ scheduleId: "done" })).map((e) => [e.seq, e.type])).toEqual([
      [2, "schedule/fired"],
      [1, "schedule/set"],
    ])
    expect(value(await stream.events({ scheduleId: "gone" })).map((e) => e.type)).toEqual(["schedule/removed"])
    expect(value(await stream.events({ scheduleId: "held" })).map((e) => [e.seq, e.type])).toEqual([
      [6, "schedule/late"],
      [5, "schedule/fired"],
      [4, "schedule/set"],
    ])
    // The finished row entered the retention journal: it goes at the end of its window.
    expect(await stream.tick(T0 - HOUR + RETAINED - 1)).toMatchObject({ swept: 0 })
    expect(await stream.tick(T0 - HOUR + RETAINED)).toMatchObject({ swept: 1 })
    expect(await stream.row("done")).toBeUndefined()
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
        startAt: T0 + 17,
        endAt: T0 + 18,
        times: 19,
        delivered: 20,
        jitterMs: 21,
        cancelReason: "reason 22",
        backfillOf: "parent-23",
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
    // Rows carry their stored history and claim number beside the schedule's fields: compared field by field.
    const fields = (row: ScheduleRow | undefined) =>
      Object.fromEntries(Object.keys(read.row).map((field) => [field, row?.[field as keyof ScheduleRow]]))
    expect(fields(read.one)).toEqual(read.row)
    expect(read.many.map(fields)).toEqual(expect.arrayContaining([read.row, read.other]))
    expect(read.many).toHaveLength(2)
    expect(read.due.map(fields)).toEqual([read.row, read.other])
    expect(read.list.map(fields)).toEqual([read.row, read.other])
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
