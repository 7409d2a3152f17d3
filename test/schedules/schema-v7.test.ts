import { evictDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { SCHEMA_VERSION } from "../../src/infra/schedules/stream/schema.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { openStream, storageAt, T0, value } from "../support/streams.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE

beforeEach(() => resetConsumers())

describe("schema version 7 (a window, a count, jitter, a reason, backfills)", () => {
  it.each(Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1))(
    "moves version %i storage on: each row keeps its occurrence, due times and claim, and takes the new rules",
    async (version) => {
      const stream = openStream(`to-v7-from-v${version}`)
      await stream.inside((_, state) => {
        const sql = state.storage.sql
        storageAt(sql, stream.name, version)
        const insert = `INSERT INTO schedules (id, consumer, kind, at_ms, interval_ms, payload, state, occurrence, next_at,
             cadence_at, claim_until, claim_token, attempts, created_at, updated_at)
           VALUES (?, 'test.scripted', ?, ?, ?, 'null', 'scheduled', ?, ?, ?, ?, ?, ?, ?, ?)`
        // Claimed by the old code for its first attempt, whose delivery died with it.
        sql.exec(insert, "held", "at", T0, null, 1, T0, T0, T0 + MINUTE, "token-1", 1, T0, T0)
        sql.exec(insert, "live", "every", null, HOUR, 3, T0 + HOUR, T0 + HOUR, null, null, 0, T0, T0)
      })
      await evictDurableObject(stream.stub)
      expect(value(await stream.get("held"))).toMatchObject({
        occurrence: 1,
        nextAt: T0,
        attempts: 1,
        claimUntil: T0 + MINUTE,
        ...{ startAt: null, endAt: null, times: null, delivered: 0, jitterMs: null },
        ...{ cancelReason: null, backfillOf: null },
      })
      expect(value(await stream.get("live"))).toMatchObject({ occurrence: 3, nextAt: T0 + HOUR, cadenceAt: T0 + HOUR })
      // The claim still holds until its lease ends; then the occurrence goes out again, under its old key.
      expect(await stream.tick(T0 + 30_000)).toMatchObject({ claimed: 0 })
      expect(await stream.tick(T0 + MINUTE + 1)).toMatchObject({ delivered: 1 })
      expect(seen.at(-1)?.delivery).toMatchObject({ scheduleId: "held", attempt: 2, occurrence: 1 })
      // An upgraded row takes a count and a window; its occurrence and cadence stay.
      const counted = value(
        await stream.upsert({ id: "live", consumer: "test.scripted", every: HOUR, times: 1 }, T0 + MINUTE + 2),
      )
      expect(counted).toMatchObject({ state: "scheduled", occurrence: 3, times: 1, nextAt: T0 + HOUR })
      expect(await stream.tick(T0 + HOUR)).toMatchObject({ delivered: 1 })
      expect(value(await stream.get("live"))).toMatchObject({ state: "completed", delivered: 1, occurrence: 3 })
    },
  )
})
