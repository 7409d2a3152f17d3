import { env } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { Schedules } from "../../src/infra/index.ts"
import { SUMMARY_ROWS_MAX } from "../../src/infra/schedules/stream/summary.ts"
import { resetConsumers, script, waiting } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, SECOND, T0, type TestStream, until, value } from "../support/streams.ts"

captureLogs()
beforeEach(resetConsumers)

const HOUR = 3_600_000

/** The stream's summary as read at a time the test sets. */
const summaryOf = (stream: TestStream) => async (now: number) =>
  value(
    await stream.inside((instance) => {
      instance.setNow(now)
      return instance.summary(stream.name)
    }),
  )

describe("a stream's summary", () => {
  it("counts schedules by state and retrying, and names the overdue one due longest ago with its lag", async () => {
    const stream = openStream("summary")
    const summaryAt = summaryOf(stream)
    value(await stream.upsert({ id: "late", consumer: "test.scripted", at: T0 + 500 }))
    value(await stream.upsert({ id: "later", consumer: "test.scripted", at: T0 + 2 * SECOND }))
    value(await stream.upsert({ id: "tomorrow", consumer: "test.scripted", every: "1 day" }))
    value(await stream.upsert({ id: "stopped", consumer: "test.scripted", every: "1 day" }))
    value(await stream.cancel("stopped"))
    value(await stream.upsert({ id: "flaky", consumer: "test.scripted", at: T0 }))
    script.set("flaky", ["retry"])
    await stream.tick(T0)

    expect(await summaryAt(T0 + 500)).toEqual({
      stream: stream.name,
      now: T0 + 500,
      counts: { scheduled: 4, completed: 0, cancelled: 1, failed: 0 },
      retrying: 1,
      partial: false,
      overdue: 0,
      oldestOverdue: null,
      newestError: { id: "flaky", error: "scripted retry of attempt 1", at: T0 },
    })
    // Overdue once due more than a second ago without a delivery: "late" (T0 + 0.5 s), not yet "flaky"'s retry (T0 + 1 s).
    expect(await summaryAt(T0 + 1_500)).toMatchObject({ overdue: 0, oldestOverdue: null })
    expect(await summaryAt(T0 + 2 * SECOND)).toMatchObject({
      overdue: 1,
      oldestOverdue: { id: "late", dueAt: T0 + 500, lagMs: 1_500 },
    })
    expect(await summaryAt(T0 + 5 * SECOND)).toMatchObject({
      overdue: 3,
      oldestOverdue: { id: "late", dueAt: T0 + 500, lagMs: 4_500 },
    })
  })

  it("names the newest failing schedule and its error, and forgets it once that schedule delivers", async () => {
    const stream = openStream("summary-newest-error")
    const summaryAt = summaryOf(stream)
    value(await stream.upsert({ id: "old-failure", consumer: "test.scripted", at: T0 }))
    value(await stream.upsert({ id: "fine", consumer: "test.scripted", at: T0 }))
    value(await stream.upsert({ id: "new-failure", consumer: "test.scripted", at: T0 + 10 * SECOND }))
    script.set("old-failure", ["terminal"])
    script.set("new-failure", ["retry", "ok"])
    expect(await summaryAt(T0)).toMatchObject({ newestError: null })
    await stream.tick(T0)
    expect(await summaryAt(T0 + SECOND)).toMatchObject({
      counts: { failed: 1, completed: 1 },
      newestError: { id: "old-failure", error: "scripted terminal failure", at: T0 },
    })
    await stream.tick(T0 + 10 * SECOND)
    expect(await summaryAt(T0 + 11 * SECOND)).toMatchObject({
      retrying: 1,
      newestError: { id: "new-failure", error: "scripted retry of attempt 1", at: T0 + 10 * SECOND },
    })
    // Its retry delivers: the error is cleared, and the older failure, still failed, is the newest again.
    await stream.tick(T0 + 60 * SECOND)
    expect(await summaryAt(T0 + 61 * SECOND)).toMatchObject({
      retrying: 0,
      newestError: { id: "old-failure", error: "scripted terminal failure", at: T0 },
    })
  })

  it("names no error once the failing schedule is cancelled: a cancelled row keeps its lastError, but fails no more", async () => {
    const stream = openStream("summary-cancelled-error")
    const summaryAt = summaryOf(stream)
    value(await stream.upsert({ id: "flaky", consumer: "test.scripted", at: T0 }))
    script.set("flaky", ["retry"])
    await stream.tick(T0)
    expect(await summaryAt(T0 + 100)).toMatchObject({ retrying: 1, newestError: { id: "flaky" } })
    value(await stream.cancel("flaky"))
    expect(await summaryAt(T0 + 200)).toMatchObject({ retrying: 0, newestError: null })
  })

  it("counts a backfill's occurrences overdue from their creation, not from their past times on the cadence", async () => {
    const opened = openStream("summary-backfill")
    const summaryAt = summaryOf(opened)
    await opened.setNow(T0)
    const stream = Schedules.stream(env.SCHEDULES, opened.name)
    await stream.upsert({ id: "m", consumer: "test.scripted", every: "1 hour", startAt: T0 - 20 * HOUR })
    const { backfill } = await stream.backfill("m", { from: T0 - 18 * HOUR, to: T0 - HOUR })
    expect(backfill.count).toBe(18)
    // Just created and not yet ticked: waiting, not 18 hours late.
    expect(await summaryAt(T0 + 500)).toMatchObject({ overdue: 0, oldestOverdue: null })
    // Left undelivered past the late threshold, they are overdue since their creation.
    expect(await summaryAt(T0 + 5 * SECOND)).toMatchObject({
      overdue: 18,
      oldestOverdue: { id: backfill.ids[0], dueAt: T0, lagMs: 5 * SECOND },
    })
  })

  it("does not count a schedule being delivered as overdue while its claim's lease runs", async () => {
    const stream = openStream("summary-in-flight")
    const summaryAt = summaryOf(stream)
    value(await stream.upsert({ id: "busy", consumer: "test.scripted", at: T0 }))
    value(await stream.upsert({ id: "waiting", consumer: "test.scripted", at: T0 + 100 }))
    script.set("busy", ["wait"])
    // Only "busy" is due: it is claimed and stays out, its row still at its due time in the due index.
    const ticking = stream.tick(T0)
    await until(() => waiting.length === 1, "the delivery to go out")
    expect(await summaryAt(T0 + 5 * SECOND)).toMatchObject({
      overdue: 1,
      oldestOverdue: { id: "waiting", dueAt: T0 + 100, lagMs: 5 * SECOND - 100 },
    })
    await stream.inside(() => waiting[0]?.answer())
    expect(await ticking).toMatchObject({ delivered: 1 })
  })

  it(`reads at most ${SUMMARY_ROWS_MAX} rows for its counts, and says so when a stream holds more`, async () => {
    const stream = openStream("summary-big")
    value(await stream.upsert({ id: "first", consumer: "test.scripted", every: "1 day" }))
    await stream.inside((_, state) => {
      state.storage.sql.exec(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO schedules (id, consumer, kind, interval_ms, payload, state, occurrence, next_at, cadence_at,
                                attempts, created_at, updated_at, finished_at)
         SELECT printf('done-%05d', i), 'test.scripted', 'after', 1000, 'null', 'completed', 1, ?, ?, 0, ?, ?, ?
         FROM n`,
        SUMMARY_ROWS_MAX + 5,
        T0,
        T0,
        T0,
        T0,
        T0,
      )
    })
    const summary = value(
      await stream.inside((instance) => {
        instance.setNow(T0)
        return instance.summary(stream.name)
      }),
    )
    expect(summary.partial).toBe(true)
    expect(summary.counts.completed + summary.counts.scheduled).toBe(SUMMARY_ROWS_MAX + 1)
  })
})
