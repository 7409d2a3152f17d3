import { evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { SCHEMA_VERSION } from "../../src/infra/schedules/stream/schema.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { openStream, SECOND, storageAt, T0, value } from "../support/streams.ts"

const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

beforeEach(resetConsumers)

/** Every stream schema version before today's: storage an earlier release (or an earlier build of this one) left. */
const EARLIER = Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1)

describe("a stream's storage written by each earlier schema version", () => {
  it("has at least the version 0.1.0 wrote (3) among the earlier ones", () => {
    expect(EARLIER).toContain(3)
  })

  it.each(EARLIER)(
    "opens from version %i and upgrades with its schedules, due times and claims intact",
    async (version) => {
      const stream = openStream(`storage-v${version}`)
      await stream.inside((_, state) => {
        const sql = state.storage.sql
        storageAt(sql, stream.name, version)
        const columns = new Set(
          sql
            .exec<{ name: string }>("SELECT name FROM pragma_table_info('schedules')")
            .toArray()
            .map((column) => column.name),
        )
        // Only the columns version 1 had, and finished_at where the version has it (3 on): what every version wrote.
        const insert = (row: Record<string, unknown>) => {
          const fields = Object.keys(row).filter((field) => field !== "finished_at" || columns.has("finished_at"))
          sql.exec(
            `INSERT INTO schedules (${fields.join(", ")}) VALUES (${fields.map(() => "?").join(", ")})`,
            ...fields.map((field) => row[field]),
          )
        }
        const base = { consumer: "test.scripted", payload: '{"n":1}', created_at: T0 - HOUR, updated_at: T0 - HOUR }
        // An every-hour schedule at its third occurrence, due at T0 + 1 h.
        insert({
          ...base,
          id: "hourly",
          kind: "every",
          interval_ms: HOUR,
          state: "scheduled",
          occurrence: 3,
          next_at: T0 + HOUR,
          cadence_at: T0 + HOUR,
          attempts: 0,
        })
        // A one-shot claimed by the old code for its first attempt, its delivery lost with it: held until T0 + 1 min.
        insert({
          ...base,
          id: "claimed",
          kind: "at",
          at_ms: T0,
          state: "scheduled",
          occurrence: 1,
          next_at: T0,
          cadence_at: T0,
          claim_until: T0 + MINUTE,
          claim_token: "old-token",
          attempts: 1,
        })
        // A one-shot retrying: its second attempt due at T0 + 2 min.
        insert({
          ...base,
          id: "retrying",
          kind: "at",
          at_ms: T0 - MINUTE,
          state: "scheduled",
          occurrence: 1,
          next_at: T0 - MINUTE,
          cadence_at: T0 - MINUTE,
          retry_at: T0 + 2 * MINUTE,
          attempts: 1,
          last_error: "503",
        })
        insert({
          ...base,
          id: "done",
          kind: "at",
          at_ms: T0 - HOUR,
          state: "completed",
          occurrence: 1,
          next_at: T0 - HOUR,
          cadence_at: T0 - HOUR,
          attempts: 0,
          finished_at: T0 - HOUR,
        })
      })
      // A fresh object migrates its storage when it starts, as after a deploy.
      await evictDurableObject(stream.stub)
      expect(value(await stream.get("hourly"))).toMatchObject({ state: "scheduled", occurrence: 3, nextAt: T0 + HOUR })
      expect(value(await stream.get("claimed"))).toMatchObject({ attempts: 1, claimUntil: T0 + MINUTE })
      expect(value(await stream.get("retrying"))).toMatchObject({ attempts: 1, retryAt: T0 + 2 * MINUTE })
      expect(value(await stream.get("done"))).toMatchObject({ state: "completed" })
      expect(
        await stream.inside(
          (_, state) => state.storage.sql.exec("SELECT value FROM meta WHERE key = 'schema_version'").one().value,
        ),
      ).toBe(String(SCHEMA_VERSION))
      // The claim holds until its lease ends; then each goes out at its own time, once.
      expect(await stream.tick(T0 + 30 * SECOND)).toMatchObject({ claimed: 0 })
      expect(await stream.tick(T0 + MINUTE + 1)).toMatchObject({ claimed: 1, delivered: 1 })
      expect(await stream.tick(T0 + 2 * MINUTE)).toMatchObject({ claimed: 1, delivered: 1 })
      expect(await stream.tick(T0 + HOUR)).toMatchObject({ claimed: 1, delivered: 1 })
      expect(seen.map(({ delivery }) => [delivery.scheduleId, delivery.occurrence, delivery.attempt])).toEqual([
        ["claimed", 1, 2],
        ["retrying", 1, 2],
        ["hourly", 3, 1],
      ])
      expect(value(await stream.get("hourly"))).toMatchObject({ occurrence: 4, nextAt: T0 + 2 * HOUR })
    },
  )
})
