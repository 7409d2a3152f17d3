import { evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { SCHEMA_VERSION } from "../../src/infra/schedules/stream/schema.ts"
import { resetConsumers } from "../support/consumers.ts"
import { openStream, storageAt, T0, value } from "../support/streams.ts"

const HOUR = 3_600_000

beforeEach(() => resetConsumers())

describe("schema version 8 (a set event in short)", () => {
  it("is the version this code writes", () => {
    expect(SCHEMA_VERSION).toBe(8)
  })

  it("moves version 7 storage on: its events read as before, and a set event written since is short", async () => {
    const stream = openStream("to-v8")
    const long = `[7,${T0},"schedule/set",{"cause":"created","consumer":"test.scripted","timing":{"kind":"every","everyMs":${HOUR}},"occurrence":1,"nextAt":${T0 + HOUR}}]`
    await stream.inside((_, state) => {
      storageAt(state.storage.sql, stream.name, 7)
      state.storage.sql.exec(
        `INSERT INTO schedules (id, consumer, kind, interval_ms, payload, state, occurrence, next_at, cadence_at,
           attempts, created_at, updated_at, event_lines, event_seq)
         VALUES ('old', 'test.scripted', 'every', ?, 'null', 'scheduled', 1, ?, ?, 0, ?, ?, ?, 7)`,
        HOUR,
        T0 + HOUR,
        T0 + HOUR,
        T0,
        T0,
        long,
      )
      state.storage.sql.exec("UPDATE meta SET value = '7' WHERE key = 'event_seq'")
    })
    await evictDurableObject(stream.stub)
    value(await stream.upsert({ id: "new", consumer: "test.scripted", every: HOUR }))
    const events = value(await stream.events())
    expect(events.map(({ scheduleId, type, data }) => ({ scheduleId, type, data }))).toEqual([
      {
        scheduleId: "new",
        type: "schedule/set",
        data: {
          cause: "created",
          consumer: "test.scripted",
          timing: { kind: "every", everyMs: HOUR },
          occurrence: 1,
          nextAt: T0 + HOUR,
        },
      },
      {
        scheduleId: "old",
        type: "schedule/set",
        data: {
          cause: "created",
          consumer: "test.scripted",
          timing: { kind: "every", everyMs: HOUR },
          occurrence: 1,
          nextAt: T0 + HOUR,
        },
      },
    ])
    const lines = await stream.inside((_, state) =>
      state.storage.sql
        .exec<{ id: string; event_lines: string }>("SELECT id, event_lines FROM schedules ORDER BY id")
        .toArray(),
    )
    expect(lines).toEqual([
      {
        id: "new",
        event_lines: expect.stringMatching(/^\[\d+,\d+,"s","created","test.scripted",\["every",3600000\],1,3600000\]$/),
      },
      { id: "old", event_lines: long },
    ])
    expect(
      await stream.inside(
        (_, state) => state.storage.sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").one().value,
      ),
    ).toBe("8")
  })
})
