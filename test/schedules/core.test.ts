import { describe, expect, it } from "vitest"
import type { ScheduleSpec } from "../../src/infra/schedules/contract/spec.ts"
import * as core from "../../src/infra/schedules/stream/core/index.ts"
import type { ScheduleRow } from "../../src/infra/schedules/stream/row.ts"

const T = Date.UTC(2100, 0, 4, 8, 0)
const spec = (timing: ScheduleSpec["timing"]): ScheduleSpec => ({
  id: "s",
  consumer: "test.scripted",
  payload: "null",
  maxAttempts: null,
  timing,
  startAt: null,
  endAt: null,
  times: null,
  jitterMs: null,
})
/** A created row's incarnation, as the stream draws one (idempotency-key.ts). */
const INCARNATION = 0x0123456789ab
const created = (timing: ScheduleSpec["timing"]) =>
  core.upsert(undefined, spec(timing), T, INCARNATION).row as ScheduleRow

function claimed(row: ScheduleRow, now: number) {
  const seen = { id: row.id, occurrence: row.occurrence, nextAt: row.nextAt, attempts: row.attempts }
  const c = core.claim(row, seen, now, "token-1", 60_000)
  if (!c) throw new Error("claim refused")
  return c
}

describe("the pure core", () => {
  it("claims only an eligible row that is still the selected occurrence, and counts the attempt", () => {
    const row = created({ kind: "at", atMs: T + 1_000 })
    const seen = { id: "s", occurrence: 1, nextAt: T + 1_000, attempts: 0 }
    expect(core.claim(row, seen, T + 999, "t", 60_000)).toBeUndefined()
    expect(core.claim(row, { ...seen, occurrence: 2 }, T + 1_000, "t", 60_000)).toBeUndefined()
    expect(core.claim(row, { ...seen, nextAt: T }, T + 1_000, "t", 60_000)).toBeUndefined()
    expect(core.claim(row, { ...seen, attempts: 1 }, T + 1_000, "t", 60_000)).toBeUndefined()
    const c = core.claim(row, seen, T + 1_000, "t", 60_000)
    expect(c?.row).toMatchObject({ claimToken: "t", claimUntil: T + 61_000, attempts: 1 })
    // Once claimed, the row is not eligible again until the lease ends.
    expect(core.claim(c?.row, { ...seen, attempts: 1 }, T + 60_999, "u", 60_000)).toBeUndefined()
  })

  it("exhausts, never claims again, an occurrence whose last allowed attempt was lost with its lease", () => {
    const once = (timing: ScheduleSpec["timing"]) =>
      core.upsert(undefined, { ...spec(timing), maxAttempts: 1 }, T, INCARNATION).row as ScheduleRow
    for (const [row, expected] of [
      [once({ kind: "at", atMs: T }), { state: "failed", occurrence: 1 }],
      [once({ kind: "every", everyMs: 60_000 }), { state: "scheduled", occurrence: 2 }],
    ] as const) {
      const { row: held } = claimed(row, row.nextAt)
      const afterLease = (held.claimUntil as number) + 1
      const seen = { id: held.id, occurrence: held.occurrence, nextAt: held.nextAt, attempts: held.attempts }
      // Still leased: neither claimed nor exhausted yet.
      expect(core.expireLost(held, seen, afterLease - 2)).toBeUndefined()
      expect(core.claim(held, seen, afterLease, "t2", 60_000)).toBeUndefined()
      const lost = core.expireLost(held, seen, afterLease)
      expect(lost?.row).toMatchObject({ ...expected, claimToken: null, claimUntil: null })
      expect(lost?.events).toEqual([
        expect.objectContaining({ type: "schedule/failed", data: expect.objectContaining({ attempts: 1 }) }),
      ])
    }
    // With attempts left, a lost attempt is claimed again, not exhausted.
    const { row: held } = claimed(created({ kind: "at", atMs: T }), T)
    const seen = { id: "s", occurrence: 1, nextAt: T, attempts: 1 }
    expect(core.expireLost(held, seen, T + 60_001)).toBeUndefined()
    expect(core.claim(held, seen, T + 60_001, "t2", 60_000)?.claim.attempts).toBe(2)
  })

  it("builds a claimed row's delivery once: its key, due time, attempt, lateness and payload", () => {
    const row = { ...created({ kind: "at", atMs: T + 1_000 }), payload: '{"userId":7}' }
    const { row: held } = claimed(row, T + 1_000)
    expect(core.deliveryOf("tenant-42", held, T + 1_250)).toEqual({
      stream: "tenant-42",
      scheduleId: "s",
      occurrence: 1,
      dueAt: new Date(T + 1_000),
      attempt: 1,
      lateByMs: 250,
      idempotencyKey: "schedule:tenant-42/s@0123456789ab:1",
      payload: { userId: 7 },
    })
    // Early (a trigger, a clock behind the due time) is never negative lateness.
    expect(core.deliveryOf("t", held, T).lateByMs).toBe(0)
  })

  it("refuses to settle behind a broken fence: token, lease, occurrence, due time or state", () => {
    const row = created({ kind: "every", everyMs: 60_000 })
    const { row: held, claim } = claimed(row, row.nextAt)
    const ok = { status: "delivered", lateByMs: 0 } as const
    const at = row.nextAt + 1_000
    expect(core.changed(core.settle(held, { ...claim, token: "other" }, ok, at))).toBe(false)
    expect(core.changed(core.settle(held, claim, ok, claim.claimUntil))).toBe(false)
    expect(core.changed(core.settle({ ...held, occurrence: 2 }, claim, ok, at))).toBe(false)
    expect(core.changed(core.settle({ ...held, nextAt: held.nextAt + 1 }, claim, ok, at))).toBe(false)
    expect(core.changed(core.settle({ ...held, state: "cancelled" }, claim, ok, at))).toBe(false)
    expect(core.changed(core.settle(undefined, claim, ok, at))).toBe(false)
    expect(core.changed(core.settle(held, claim, { status: "retry", reason: "late" }, claim.claimUntil + 1))).toBe(
      false,
    )
    const settled = core.settle(held, claim, ok, at)
    expect(settled.row).toMatchObject({ occurrence: 2, nextAt: row.nextAt + 60_000, attempts: 0, claimToken: null })
  })

  it("coalesces missed every-slots onto the cadence in one step", () => {
    const row = created({ kind: "every", everyMs: 7_000 })
    const now = row.nextAt + 1e12 + 123
    const next = core.nextDue(row, now) as number
    expect((next - row.nextAt) % 7_000).toBe(0)
    expect(next).toBeGreaterThan(now)
    expect(next - now).toBeLessThanOrEqual(7_000)
  })

  it("backs off 1, 2, 4, 8, 16, 32, 60, 60 s from the stored attempt count", () => {
    let row = created({ kind: "at", atMs: T })
    const delays: number[] = []
    let now = T
    for (let attempt = 1; attempt <= 8; attempt++) {
      const { row: held, claim } = claimed(row, now)
      const failed = core.settle(held, claim, { status: "retry", reason: "no" }, now)
      row = failed.row as ScheduleRow
      delays.push((row.retryAt as number) - now)
      now = row.retryAt as number
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60].map((s) => s * 1_000))
  })

  it("moves next_at only for a changed timing, and keeps the occurrence", () => {
    const row = { ...created({ kind: "every", everyMs: 60_000 }), occurrence: 5 }
    // An existing row keeps its incarnation whatever the caller drew.
    const drawn = 0xfedcba987654
    expect(core.changed(core.upsert(row, spec({ kind: "every", everyMs: 60_000 }), T + 5, drawn))).toBe(false)
    const retimed = core.upsert(row, spec({ kind: "every", everyMs: 120_000 }), T + 5, drawn)
    expect(retimed.row).toMatchObject({ occurrence: 5, nextAt: T + 5 + 120_000, incarnation: INCARNATION })
    const repaid = core.upsert(row, { ...spec({ kind: "every", everyMs: 60_000 }), payload: '{"n":2}' }, T + 5, drawn)
    expect(repaid.row).toMatchObject({ nextAt: row.nextAt, payload: '{"n":2}', incarnation: INCARNATION })
  })

  it("fires a wall-clock time lost to spring-forward at the first valid time, and a doubled one once", () => {
    const cron = (afterIso: string) =>
      core.firstDue({ kind: "cron", cron: "30 2 * * *", timezone: "Europe/Berlin" }, Date.parse(afterIso))
    // 2100-03-28: 02:30 does not exist in Berlin; 03:00 CEST is 01:00 UTC.
    expect(new Date(cron("2100-03-28T00:00:00Z")).toISOString()).toBe("2100-03-28T01:00:00.000Z")
    // 2100-10-31: 02:30 happens twice; only the first (CEST, 00:30 UTC) fires.
    const first = cron("2100-10-30T23:00:00Z")
    expect(new Date(first).toISOString()).toBe("2100-10-31T00:30:00.000Z")
    expect(new Date(cron(new Date(first).toISOString())).toISOString()).toBe("2100-11-01T01:30:00.000Z")
  })
})
