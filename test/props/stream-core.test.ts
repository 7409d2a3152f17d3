import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseCron } from "../../src/infra/cron.ts"
import { NAME } from "../../src/infra/schedules/contract/limits.ts"
import type { ScheduleSpec } from "../../src/infra/schedules/contract/spec.ts"
import { backfill, backfillId } from "../../src/infra/schedules/stream/backfill.ts"
import * as core from "../../src/infra/schedules/stream/core/index.ts"
import type { ScheduleRow } from "../../src/infra/schedules/stream/row.ts"

/**
 * The stream's pure core against properties (issue 46): the next occurrence with jitter, a window and a count; DST
 * days in IANA zones; backfill ids. Each property restates the rule in the plainest way (a walk along the cadence).
 */

const T = Date.UTC(2100, 0, 4, 8, 0)
const SECOND = 1_000
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const STREAM = "props"
const spec = (timing: ScheduleSpec["timing"], rules: Partial<ScheduleSpec> = {}): ScheduleSpec => ({
  id: "p",
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

/** Claims the row at `claimAt` (its due time at the earliest) and settles it delivered `answerMs` later. */
function deliver(row: ScheduleRow, claimAt: number, answerMs: number): ScheduleRow {
  const seen = { id: row.id, occurrence: row.occurrence, nextAt: row.nextAt, attempts: row.attempts }
  const claimed = core.claim(row, seen, claimAt, "t", 1_000 * HOUR)
  if (!claimed) throw new Error(`not claimable at ${claimAt}: ${JSON.stringify(row)}`)
  const result = { status: "delivered", lateByMs: claimAt - row.nextAt } as const
  return core.settle(claimed.row, claimed.claim, result, claimAt + answerMs, STREAM).row as ScheduleRow
}

/** The first point after `from` on the cadence, walked one point at a time. */
const walk = (next: (p: number) => number | undefined, from: number, missed: (p: number) => boolean) => {
  let p = next(from)
  while (p !== undefined && missed(p)) p = next(p)
  return p
}

describe("properties of the core: every, with jitter, a window and a count", () => {
  const definition = fc
    .record({
      every: fc.integer({ min: SECOND, max: 2 * HOUR }),
      jitterShare: fc.option(fc.double({ min: 0, max: 0.999, noNaN: true }), { nil: undefined }),
      start: fc.option(fc.integer({ min: -3 * HOUR, max: 3 * HOUR }), { nil: undefined }),
      end: fc.option(fc.integer({ min: 0, max: 200 * HOUR }), { nil: undefined }),
      times: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
      incarnation: fc.integer({ min: 0, max: 2 ** 48 - 1 }),
    })
    .map((d) => {
      const jitterMs = d.jitterShare === undefined ? null : Math.floor(d.jitterShare * d.every) || null
      const startAt = d.start === undefined ? null : T + d.start
      const endAt = d.end === undefined ? null : (startAt ?? T) + d.end
      return { ...d, jitterMs, startAt, endAt }
    })

  it("a consumer answering within the gap gets every point, in order, each due within its jitter, up to the window and count", () => {
    fc.assert(
      fc.property(
        definition,
        fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 50, maxLength: 50 }),
        (d, answers) => {
          const s = spec(
            { kind: "every", everyMs: d.every },
            { jitterMs: d.jitterMs, startAt: d.startAt, endAt: d.endAt, times: d.times ?? null },
          )
          let row = core.upsert(undefined, s, T, d.incarnation, STREAM).row as ScheduleRow
          let expected = core.firstDue({ kind: "every", everyMs: d.every }, T, d.startAt)
          let settledAt = T
          for (const share of answers) {
            if (row.state !== "scheduled") break
            expect(row.cadenceAt).toBe(expected)
            if (d.startAt !== null) expect(row.cadenceAt).toBeGreaterThanOrEqual(d.startAt)
            if (d.endAt !== null) expect(row.cadenceAt).toBeLessThanOrEqual(d.endAt)
            expect(row.nextAt - row.cadenceAt).toBeGreaterThanOrEqual(0)
            expect(row.nextAt - row.cadenceAt).toBeLessThanOrEqual(d.jitterMs ?? 0)
            expect(row.nextAt).toBeGreaterThanOrEqual(settledAt > row.nextAt ? row.nextAt : 0)
            // Answered within the gap: before the next point on the cadence.
            const claimAt = Math.max(row.nextAt, settledAt)
            const answerMs = Math.floor(share * (row.cadenceAt + d.every - claimAt))
            settledAt = claimAt + Math.max(0, answerMs)
            row = deliver(row, claimAt, Math.max(0, answerMs))
            expected += d.every
          }
          const delivered = row.delivered
          if (d.times !== undefined) expect(delivered).toBeLessThanOrEqual(d.times)
          if (row.state === "completed") {
            const countReached = d.times !== undefined && delivered === d.times
            const windowEnded = d.endAt !== null && row.cadenceAt + d.every > d.endAt
            expect(countReached || windowEnded).toBe(true)
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it("after a settle at any time, the next point is the first whose cadence plus jitter is still ahead: a healthy stream coalesces nothing", () => {
    fc.assert(
      fc.property(definition, fc.integer({ min: 0, max: 100 * HOUR }), (d, delay) => {
        const s = spec({ kind: "every", everyMs: d.every }, { jitterMs: d.jitterMs })
        const row = core.upsert(undefined, s, T, d.incarnation, STREAM).row as ScheduleRow
        const settledAt = row.nextAt + delay
        const next = deliver(row, row.nextAt, delay)
        const jitter = d.jitterMs ?? 0
        // Walked point by point (bounded: a jump over many points is arithmetic).
        const skip = Math.max(0, Math.floor((settledAt - jitter - row.cadenceAt) / d.every) - 2)
        const from = row.cadenceAt + skip * d.every
        const expected = walk(
          (p) => p + d.every,
          from,
          (p) => p + jitter <= settledAt,
        )
        expect(next.cadenceAt).toBe(expected)
        expect(next.occurrence).toBe(2)
        if (delay < d.every - (row.nextAt - row.cadenceAt)) expect(next.cadenceAt).toBe(row.cadenceAt + d.every)
      }),
      { numRuns: 300 },
    )
  })
})

describe("properties of the core: a cron on DST days in IANA zones", () => {
  // Months in which each zone's clocks change, each with crons one of whose gaps that day is shorter than usual.
  const CASES: ReadonlyArray<readonly [string, number, string]> = [
    ["Europe/Berlin", 2, "30 1,3 * * *"],
    ["Europe/Berlin", 2, "0 0,3 * * *"],
    ["America/New_York", 2, "30 1,3 * * *"],
    ["Australia/Lord_Howe", 9, "0 1,3 * * *"],
    ["America/Santiago", 8, "30 23 * * *"],
    ["Europe/Berlin", 9, "0 */2 * * *"],
    ["America/New_York", 10, "15 0-4 * * *"],
    ["Asia/Kolkata", 2, "*/30 1-3 * * *"],
  ]

  it("delivers every cron time of a month in order, each before the next point, its offset within the jitter", () => {
    let shortened = 0
    fc.assert(
      fc.property(
        fc.constantFrom(...CASES),
        fc.double({ min: 0.5, max: 0.999, noNaN: true }),
        fc.integer({ min: 0, max: 2 ** 48 - 1 }),
        ([timezone, month, cron], share, incarnation) => {
          const start = Date.UTC(2100, month, 1)
          const parsed = parseCron(cron, timezone)
          // Jitter below the shortest of the next 8 gaps, as validation checks it at the start of the month.
          let gap = Number.POSITIVE_INFINITY
          for (let at = parsed.nextAfter(start) as number, i = 0; i < 8; i++) {
            const next = parsed.nextAfter(at) as number
            gap = Math.min(gap, next - at)
            at = next
          }
          const jitterMs = Math.max(1, Math.floor(share * gap) - 1)
          const s = spec({ kind: "cron", cron, timezone }, { jitterMs, endAt: start + 32 * 24 * HOUR })
          let row = core.upsert(undefined, s, start, incarnation, STREAM).row as ScheduleRow
          let point = parsed.nextAfter(start) as number
          let previousDue = Number.NEGATIVE_INFINITY
          for (let i = 0; i < 400 && row.state === "scheduled"; i++) {
            expect(row.cadenceAt).toBe(point)
            const next = parsed.nextAfter(point) as number
            expect(row.nextAt).toBeGreaterThan(previousDue)
            expect(row.nextAt).toBeGreaterThanOrEqual(point)
            expect(row.nextAt - point).toBeLessThanOrEqual(jitterMs)
            expect(row.nextAt).toBeLessThan(next)
            if (next - point <= jitterMs) shortened++
            previousDue = row.nextAt
            row = deliver(row, row.nextAt, SECOND)
            point = next
          }
        },
      ),
      { numRuns: 24 },
    )
    // The runs met days whose gap is no longer than the jitter, which validation (the next 8 gaps) did not see.
    expect(shortened).toBeGreaterThan(0)
  }, 180_000)
})

describe("properties of backfill ids", () => {
  const name = fc.stringMatching(/^[A-Za-z0-9._~-]{1,128}$/).filter((s) => s !== "." && s !== "..")

  it("are always NAMEs, the same for the same input, distinct for distinct parents, runs and times", () => {
    fc.assert(
      fc.property(
        name,
        name,
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 8_000_000_000_000 }),
        fc.integer({ min: 0, max: 8_000_000_000_000 }),
        (a, b, runA, runB, atA, atB) => {
          const id = backfillId(a, runA, atA)
          expect(id).toMatch(NAME)
          expect(id).toBe(backfillId(a, runA, atA))
          if (a.length + `~backfill-${runA}-${atA}`.length <= 128) expect(id).toBe(`${a}~backfill-${runA}-${atA}`)
          expect(id.endsWith(`~backfill-${runA}-${atA}`)).toBe(true)
          if (a !== b || runA !== runB || atA !== atB) expect(backfillId(b, runB, atB)).not.toBe(id)
        },
      ),
      { numRuns: 2_000 },
    )
  })

  it("a backfill plan of any parent names rows a client can address, one per cadence point", () => {
    fc.assert(
      fc.property(name, fc.integer({ min: 1, max: 999 }), fc.integer({ min: 1, max: 50 }), (parent, run, count) => {
        const hourly = core.upsert(undefined, { ...spec({ kind: "every", everyMs: HOUR }), id: parent }, T, 1, STREAM)
          .row as ScheduleRow
        const plan = backfill(
          hourly,
          { from: T - count * HOUR, to: T - HOUR },
          run,
          T,
          () => 2,
          () => false,
          false,
        )
        if (!("report" in plan)) throw new Error(JSON.stringify(plan))
        expect(plan.report.ids).toHaveLength(count)
        expect(new Set(plan.report.ids).size).toBe(count)
        for (const id of plan.report.ids) expect(id).toMatch(NAME)
      }),
      { numRuns: 200 },
    )
  })
})
