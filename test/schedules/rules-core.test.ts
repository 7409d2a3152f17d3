import { describe, expect, it } from "vitest"
import { MAX_BACKFILL } from "../../src/infra/schedules/contract/limits.ts"
import type { ScheduleSpec } from "../../src/infra/schedules/contract/spec.ts"
import { backfill, cadenceTimes } from "../../src/infra/schedules/stream/backfill.ts"
import * as core from "../../src/infra/schedules/stream/core/index.ts"
import { idempotencyKey } from "../../src/infra/schedules/stream/idempotency-key.ts"
import { jitterOffset } from "../../src/infra/schedules/stream/jitter.ts"
import type { ScheduleRow } from "../../src/infra/schedules/stream/row.ts"

/** The pure core's rules for a window, a count and jitter, and a backfill's plan: no storage, an injected now. */

const T = Date.UTC(2100, 0, 4, 8, 0)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const STREAM = "rules"
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
const created = (s: ScheduleSpec, now = T) => core.upsert(undefined, s, now, 0xabc, STREAM).row as ScheduleRow

/** Claims the row at `now` and settles its attempt as delivered. */
function deliver(row: ScheduleRow, now: number): ScheduleRow {
  const seen = { id: row.id, occurrence: row.occurrence, nextAt: row.nextAt, attempts: row.attempts }
  const claimed = core.claim(row, seen, now, "t", MINUTE)
  if (!claimed) throw new Error(`not claimable at ${now}: ${JSON.stringify(row)}`)
  const settled = core.settle(claimed.row, claimed.claim, { status: "delivered", lateByMs: 0 }, now, STREAM)
  return settled.row as ScheduleRow
}

describe("the core: a window", () => {
  it("starts `every` at startAt and counts its cadence from it, and a cron at or after it", () => {
    const every = { kind: "every", everyMs: HOUR } as const
    expect(core.firstDue(every, T, T + 90 * MINUTE)).toBe(T + 90 * MINUTE)
    expect(core.firstDue(every, T, T - 90 * MINUTE)).toBe(T + 30 * MINUTE)
    expect(core.firstDue(every, T, null)).toBe(T + HOUR)
    const cron = { kind: "cron", cron: "0 * * * *", timezone: "UTC" } as const
    expect(core.firstDue(cron, T, T + 3 * HOUR)).toBe(T + 3 * HOUR)
    expect(core.firstDue(cron, T, T + 3 * HOUR + 1)).toBe(T + 4 * HOUR)
  })

  it("completes after the last occurrence at or before endAt, keeping the occurrence it ended on", () => {
    let row = created(spec({ kind: "every", everyMs: HOUR }, { endAt: T + 3 * HOUR }))
    row = deliver(row, T + HOUR)
    row = deliver(row, T + 2 * HOUR)
    expect(row).toMatchObject({ state: "scheduled", occurrence: 3, nextAt: T + 3 * HOUR })
    row = deliver(row, T + 3 * HOUR)
    expect(row).toMatchObject({ state: "completed", occurrence: 3, delivered: 3, finishedAt: T + 3 * HOUR })
  })
})

describe("the core: a count", () => {
  it("completes after `times` delivered occurrences; a retry does not count, a skip does not either", () => {
    let row = created(spec({ kind: "every", everyMs: HOUR }, { times: 2, maxAttempts: 1 }))
    const seen = { id: row.id, occurrence: 1, nextAt: row.nextAt, attempts: 0 }
    const claimed = core.claim(row, seen, T + HOUR, "t", MINUTE)
    const skipped = core.settle(claimed?.row, claimed!.claim, { status: "retry", reason: "no" }, T + HOUR, STREAM)
    row = skipped.row as ScheduleRow
    expect(row).toMatchObject({ state: "scheduled", occurrence: 2, delivered: 0 })
    row = deliver(row, T + 2 * HOUR)
    expect(row).toMatchObject({ state: "scheduled", delivered: 1 })
    row = deliver(row, T + 3 * HOUR)
    expect(row).toMatchObject({ state: "completed", delivered: 2, occurrence: 3 })
  })

  it("an upsert lowering the count to what was delivered completes the row, withdrawing its claim", () => {
    let row = created(spec({ kind: "every", everyMs: HOUR }, { times: 5 }))
    row = deliver(deliver(row, T + HOUR), T + 2 * HOUR)
    const lowered = core.upsert(row, spec({ kind: "every", everyMs: HOUR }, { times: 2 }), T + 2 * HOUR, 1, STREAM)
    expect(lowered.row).toMatchObject({ state: "completed", delivered: 2, claimToken: null, claimUntil: null })
    expect(lowered.events[0]?.data).toMatchObject({ cause: "completed", state: "completed", delivered: 2 })
  })
})

describe("the core: jitter", () => {
  it("delivers each occurrence at its cadence time plus its key's offset, and moves the cadence, never the offset", () => {
    let row = created(spec({ kind: "every", everyMs: HOUR }, { jitterMs: 10 * MINUTE }))
    for (let i = 1; i <= 24; i++) {
      expect(row.cadenceAt).toBe(T + i * HOUR)
      const offset = row.nextAt - row.cadenceAt
      expect(offset).toBe(jitterOffset(idempotencyKey(STREAM, row), 10 * MINUTE))
      expect(offset).toBeGreaterThanOrEqual(0)
      expect(offset).toBeLessThanOrEqual(10 * MINUTE)
      row = deliver(row, row.nextAt)
    }
    const offsets = new Set(Array.from({ length: 50 }, (_, i) => jitterOffset(`schedule:t-${i}/digest@0:1`, 600_000)))
    expect(offsets.size).toBeGreaterThan(45)
  })
})

describe("the core: backfill", () => {
  const hourly = created(spec({ kind: "every", everyMs: HOUR }, { startAt: T - 10 * HOUR }), T)

  it("names the cadence's times in the range and inside the window, oldest first", () => {
    expect(cadenceTimes(hourly, T - 3 * HOUR - 1, T - HOUR, 10)).toEqual([T - 3 * HOUR, T - 2 * HOUR, T - HOUR])
    expect(cadenceTimes(hourly, T - 20 * HOUR, T - 9 * HOUR, 10)).toEqual([T - 10 * HOUR, T - 9 * HOUR])
    const cron = created(spec({ kind: "cron", cron: "30 9 * * *", timezone: "Europe/Berlin" }))
    expect(cadenceTimes(cron, T - 3 * 24 * HOUR, T, 10)).toEqual(
      [3, 2, 1].map((days) => T - days * 24 * HOUR + 30 * MINUTE),
    )
  })

  it("plans one one-shot per occurrence with its own id and the schedule's consumer and payload; refuses what it must", () => {
    const plan = backfill(
      hourly,
      { from: T - 2 * HOUR, to: T - HOUR },
      7,
      T,
      () => 1,
      () => false,
      false,
    )
    if (!("report" in plan)) throw new Error(JSON.stringify(plan))
    expect(plan.report).toMatchObject({ count: 2, ids: [`s~backfill-7-${T - 2 * HOUR}`, `s~backfill-7-${T - HOUR}`] })
    expect(plan.changes.map((c) => c.row)).toEqual([
      expect.objectContaining({ kind: "at", nextAt: T - 2 * HOUR, backfillOf: "s", occurrence: 1, state: "scheduled" }),
      expect.objectContaining({ kind: "at", nextAt: T - HOUR, backfillOf: "s" }),
      hourly,
    ])
    const dry = backfill(
      hourly,
      { from: T - 2 * HOUR, to: T - HOUR },
      7,
      T,
      () => 1,
      () => false,
      true,
    )
    expect(dry).toMatchObject({ report: { count: 2, dryRun: true, ids: [] }, changes: [] })
    const oneShot = created(spec({ kind: "at", atMs: T + HOUR }))
    expect(
      backfill(
        oneShot,
        { from: T - HOUR, to: T },
        1,
        T,
        () => 1,
        () => false,
        false,
      ),
    ).toMatchObject({
      refused: expect.stringMatching(/one-shot/),
    })
    const everySecond = created(spec({ kind: "every", everyMs: 1_000 }))
    const over = backfill(
      everySecond,
      { from: T - MAX_BACKFILL * 1_000, to: T },
      1,
      T,
      () => 1,
      () => false,
      false,
    )
    expect(over).toMatchObject({ field: "to" })
    const taken = backfill(
      hourly,
      { from: T - HOUR, to: T - HOUR },
      1,
      T,
      () => 1,
      () => true,
      false,
    )
    expect(taken).toMatchObject({ refused: expect.stringMatching(/exists already/) })
  })

  it("keeps a cancel's reason on the row and in its event", () => {
    const cancelled = core.cancel(hourly, T, "maintenance")
    expect(cancelled.row).toMatchObject({ state: "cancelled", cancelReason: "maintenance" })
    expect(cancelled.events[0]?.data).toMatchObject({ reason: "maintenance" })
    expect(core.resume(cancelled.row, T + 1).row).toMatchObject({ cancelReason: null })
  })
})
