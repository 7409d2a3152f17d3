import { describe, expect, it } from "vitest"
import type { ScheduleSpec } from "../../src/infra/schedules/contract/spec.ts"
import * as core from "../../src/infra/schedules/stream/core/index.ts"
import type { ScheduleRow } from "../../src/infra/schedules/stream/row.ts"

/**
 * Issue 46: a jittered occurrence is due at its cadence point plus its offset, so an ordinary answer time must not
 * push the settle past the next cadence point and coalesce it as if the stream had been down.
 */

const T = Date.UTC(2100, 0, 4, 8, 0)
const SECOND = 1_000
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const STREAM = "jc"
const spec = (timing: ScheduleSpec["timing"], rules: Partial<ScheduleSpec> = {}): ScheduleSpec => ({
  id: "s",
  consumer: "test.scripted",
  payload: "null",
  maxAttempts: null,
  timing,
  startAt: null,
  endAt: null,
  times: null,
  jitterMs: null,
  ...rules,
})

/** Claims the row at its due time and settles it as delivered `answerMs` later. */
function deliverIn(row: ScheduleRow, answerMs: number, claimAt = row.nextAt): ScheduleRow {
  const seen = { id: row.id, occurrence: row.occurrence, nextAt: row.nextAt, attempts: row.attempts }
  const claimed = core.claim(row, seen, claimAt, "t", 10 * MINUTE)
  if (!claimed) throw new Error(`not claimable at ${claimAt}`)
  const settled = core.settle(
    claimed.row,
    claimed.claim,
    { status: "delivered", lateByMs: 0 },
    claimAt + answerMs,
    STREAM,
  )
  return settled.row as ScheduleRow
}

describe("jitter and coalescing", () => {
  it("loses no occurrence of `every: 1 minute, jitter: 45 seconds` to a consumer answering in 20 s", () => {
    for (const incarnation of [0x1, 0xabc, 0xdead, 0x5eed, 0x123456]) {
      let row = core.upsert(
        undefined,
        spec({ kind: "every", everyMs: MINUTE }, { jitterMs: 45 * SECOND }),
        T,
        incarnation,
        STREAM,
      ).row as ScheduleRow
      const cadence: number[] = []
      for (let i = 0; i < 119; i++) {
        cadence.push(row.cadenceAt)
        row = deliverIn(row, 20 * SECOND, Math.max(row.nextAt, cadence.length > 1 ? row.updatedAt : 0))
      }
      // Every cadence point, one after another: none coalesced.
      expect(cadence).toEqual(Array.from({ length: 119 }, (_, i) => T + (i + 1) * MINUTE))
      expect(row).toMatchObject({ occurrence: 120, delivered: 119, cadenceAt: T + 120 * MINUTE })
    }
  })

  it("still coalesces the points whose due time passed while the stream was down", () => {
    let row = core.upsert(undefined, spec({ kind: "every", everyMs: MINUTE }, { jitterMs: 45 * SECOND }), T, 7, STREAM)
      .row as ScheduleRow
    // Delivered an hour late: the 59 points whose latest due time (cadence + jitter) has passed are missed.
    row = deliverIn(row, 0, T + 61 * MINUTE)
    expect(row.occurrence).toBe(2)
    // T+61min is the first point whose latest due time (+45 s) is still ahead: delivered, late at most by the jitter.
    expect(row.cadenceAt).toBe(T + 61 * MINUTE)
  })

  it("loses no occurrence of an unjittered schedule answered within its interval (unchanged)", () => {
    let row = core.upsert(undefined, spec({ kind: "every", everyMs: MINUTE }), T, 9, STREAM).row as ScheduleRow
    for (let i = 0; i < 30; i++) row = deliverIn(row, 59 * SECOND)
    expect(row).toMatchObject({ occurrence: 31, cadenceAt: T + 31 * MINUTE })
    row = deliverIn(row, MINUTE)
    expect(row).toMatchObject({ occurrence: 32, cadenceAt: T + 33 * MINUTE })
  })
})

describe("jitter on a DST day", () => {
  // 01:30 and 03:30 in Berlin are 2 h apart, except on the day clocks go forward (01:30 CET to 03:30 CEST: 1 h).
  const timing = { kind: "cron", cron: "30 1,3 * * *", timezone: "Europe/Berlin" } as const
  const from = Date.UTC(2100, 2, 20)

  it("keeps every occurrence, in order and before the next cadence point, when a gap is shorter than the jitter", () => {
    let shortened = 0
    for (let incarnation = 1; incarnation <= 40; incarnation++) {
      let row = core.upsert(undefined, spec(timing, { jitterMs: 90 * MINUTE }), from, incarnation, STREAM)
        .row as ScheduleRow
      const cadence: number[] = []
      let last = 0
      for (let i = 0; i < 30; i++) {
        cadence.push(row.cadenceAt)
        expect(row.nextAt).toBeGreaterThan(last)
        last = row.nextAt
        const before = row
        row = deliverIn(row, SECOND)
        // The occurrence is delivered before the next point on the cadence is due.
        expect(before.nextAt).toBeLessThan(row.cadenceAt)
        if (row.cadenceAt - before.cadenceAt === HOUR) shortened++
      }
      // Two a day, none lost, the short gap included.
      const expected: number[] = []
      for (let day = 0; expected.length < 30; day++) {
        for (const hour of [1, 3]) {
          const local = Date.UTC(2100, 2, 20 + day, hour, 30)
          // Summer time from 01:00 UTC on Sunday 28 March 2100.
          expected.push(local - HOUR >= Date.UTC(2100, 2, 28, 1) ? local - 2 * HOUR : local - HOUR)
        }
      }
      expect(cadence).toEqual(expected.slice(0, 30))
    }
    expect(shortened).toBe(40)
  })
})
