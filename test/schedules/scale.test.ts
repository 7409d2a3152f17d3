import { beforeEach, describe, expect, it, vi } from "vitest"
import { LIST_DEFAULT } from "../../src/infra/schedules/contract/limits.ts"
import type { ScheduleState } from "../../src/infra/schedules/index.ts"
import { BATCH_SIZE } from "../../src/infra/schedules/stream/tick.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { openStream, SECOND, T0, type TestStream, value } from "../support/streams.ts"

const HOUR = 3_600 * SECOND
const BULK = 100_000
/** Every 2,500th row is due: 40 of the 100,000. */
const DUE_EVERY = 2_500
const DUE = BULK / DUE_EVERY

beforeEach(resetConsumers)

const bulkId = (i: number) => `bulk-${String(i).padStart(6, "0")}`

/**
 * Inserts `count` one-shot rows for test.scripted in one statement, bypassing upsert: ids
 * bulk-000001..., `nextAt` and `state` are SQL expressions of the row number `i`.
 */
function insertSchedules(stream: TestStream, count: number, columns: { nextAt: string; state: string }) {
  return stream.inside((_, state) => {
    state.storage.sql.exec("INSERT INTO meta (key, value) VALUES ('stream', ?) ON CONFLICT DO NOTHING", stream.name)
    state.storage.sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO schedules (id, consumer, kind, at_ms, payload, state, occurrence, next_at, cadence_at, attempts,
         created_at, updated_at)
       SELECT printf('bulk-%06d', i), 'test.scripted', 'at', due, 'null', row_state, 1, due, due, 0, ?, ?
       FROM (SELECT i, ${columns.nextAt} AS due, ${columns.state} AS row_state FROM n)`,
      count,
      T0,
      T0,
    )
    return Number(state.storage.sql.exec("SELECT count(*) AS n FROM schedules").one().n)
  })
}

/** 100,000 scheduled rows; 40 due at T0 (bulk-002500, bulk-005000, ... in due order), the rest an hour on. */
const insertHundredThousand = (stream: TestStream) =>
  insertSchedules(stream, BULK, {
    nextAt: `CASE WHEN i % ${DUE_EVERY} = 0 THEN ${T0 - BULK} + i ELSE ${T0 + HOUR} + i END`,
    state: "'scheduled'",
  })

const dueIds = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => bulkId((from + k) * DUE_EVERY))

describe("100,000 schedules in one stream", () => {
  it("selects due rows and the next alarm through schedules_due, with no sort", async () => {
    const stream = openStream("plan")
    expect(await insertHundredThousand(stream)).toBe(BULK)

    const plans = await stream.inside((instance, state) => {
      const store = instance.storeForTests()
      // The exact SQL and bindings the store runs, captured where every query of it goes.
      const exec = vi.spyOn(state.storage.sql, "exec")
      try {
        const selected = store.selectDue(T0, BATCH_SIZE)
        const next = store.nextEligibleAt()
        const [dueCall, nextCall] = exec.mock.calls as unknown as Array<[string, ...SqlStorageValue[]]>
        exec.mockRestore()
        const explain = ([query, ...bindings]: [string, ...SqlStorageValue[]]) =>
          state.storage.sql
            .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...bindings)
            .toArray()
            .map((row) => row.detail)
        return {
          selected: selected.map((row) => row.id),
          next,
          due: { bindings: dueCall?.slice(1), plan: explain(dueCall as [string]) },
          nextAlarm: explain(nextCall as [string]),
        }
      } finally {
        exec.mockRestore()
      }
    })

    expect(plans.selected).toEqual(dueIds(1, BATCH_SIZE))
    expect(plans.next).toBe(T0 - BULK + DUE_EVERY)
    expect(plans.due.bindings).toEqual([T0, BATCH_SIZE])
    expect(plans.due.plan.join("\n")).toMatch(/USING (COVERING )?INDEX schedules_due/)
    expect(plans.due.plan.join("\n")).not.toContain("TEMP B-TREE")
    expect(plans.nextAlarm.join("\n")).toMatch(/USING (COVERING )?INDEX schedules_due/)
    expect(plans.nextAlarm.join("\n")).not.toContain("TEMP B-TREE")
  })

  it("delivers 32 due rows per tick, then the other 8, and an idle tick writes nothing", async () => {
    const stream = openStream("hundred-thousand")
    expect(await insertHundredThousand(stream)).toBe(BULK)

    const first = await stream.tick(T0)
    expect(first).toMatchObject({ claimed: BATCH_SIZE, delivered: BATCH_SIZE, retried: 0, failed: 0, stale: 0 })
    expect(first.error).toBeUndefined()
    // Work grows with the batch, not the table: a scan would read 100,000 rows.
    expect(first.rowsRead).toBeLessThan(1_000)
    expect(seen.map(({ delivery }) => delivery.scheduleId).sort()).toEqual(dueIds(1, BATCH_SIZE))
    // The rest of the due rows are still due: the alarm is the oldest of them.
    expect(first.alarm).toBe(T0 - BULK + (BATCH_SIZE + 1) * DUE_EVERY)

    const second = await stream.tick(T0)
    expect(second).toMatchObject({ claimed: DUE - BATCH_SIZE, delivered: DUE - BATCH_SIZE })
    expect(
      seen
        .slice(BATCH_SIZE)
        .map(({ delivery }) => delivery.scheduleId)
        .sort(),
    ).toEqual(dueIds(BATCH_SIZE + 1, DUE))
    expect(second.alarm).toBe(T0 + HOUR + 1)

    const idle = await stream.tick(T0 + SECOND)
    expect(idle).toMatchObject({ claimed: 0, delivered: 0, rowsWritten: 0, alarm: T0 + HOUR + 1 })
    expect(idle.error).toBeUndefined()
    expect(idle.rowsRead).toBeLessThanOrEqual(4)
    expect(seen).toHaveLength(DUE)
    expect(await stream.alarm()).toBe(T0 + HOUR + 1)

    const states = await stream.inside((_, state) =>
      state.storage.sql.exec("SELECT state, count(*) AS n FROM schedules GROUP BY state ORDER BY state").toArray(),
    )
    expect(states).toEqual([
      { state: "completed", n: DUE },
      { state: "scheduled", n: BULK - DUE },
    ])
  })
})

describe("list pagination over 10,000 rows", () => {
  const ROWS = 10_000
  const STATES = "CASE i % 4 WHEN 0 THEN 'scheduled' WHEN 1 THEN 'completed' WHEN 2 THEN 'cancelled' ELSE 'failed' END"

  async function pageThrough(stream: TestStream, options: { state?: ScheduleState; limit: number }) {
    const pages: string[][] = []
    let cursor: string | undefined
    for (;;) {
      const page = value(await stream.list({ ...options, ...(cursor === undefined ? {} : { cursor }) }))
      expect(page.schedules.length).toBeLessThanOrEqual(options.limit)
      if (options.state) expect(page.schedules.every((view) => view.state === options.state)).toBe(true)
      pages.push(page.schedules.map((view) => view.id))
      if (page.cursor === null) return pages
      expect(page.cursor).toBe(page.schedules.at(-1)?.id)
      cursor = page.cursor
      expect(pages.length).toBeLessThan(100)
    }
  }

  it.each([
    { state: "scheduled" as const, limit: 333, pages: 8 },
    { state: "failed" as const, limit: 500, pages: 6 },
    { state: undefined, limit: 500, pages: 21 },
  ])("pages of $limit with state $state neither overlap nor miss a row", async ({ state, limit, pages }) => {
    const stream = openStream("pages")
    expect(await insertSchedules(stream, ROWS, { nextAt: `${T0 + HOUR} + i`, state: STATES })).toBe(ROWS)
    const expected = await stream.inside((_, storage) =>
      storage.storage.sql
        .exec<{ id: string }>(
          `SELECT id FROM schedules ${state ? "WHERE state = ?" : ""} ORDER BY id`,
          ...(state ? [state] : []),
        )
        .toArray()
        .map((row) => row.id),
    )
    expect(expected).toHaveLength(state ? ROWS / 4 : ROWS)

    const seenPages = await pageThrough(stream, state ? { state, limit } : { limit })
    const ids = seenPages.flat()
    expect(seenPages).toHaveLength(pages)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual(expected)
  })

  it("uses the default page size when options arrive present but undefined", async () => {
    const stream = openStream("pages-default")
    await insertSchedules(stream, ROWS, { nextAt: `${T0 + HOUR} + i`, state: STATES })
    const page = value(await stream.list({ state: "scheduled", limit: undefined, cursor: undefined }))
    expect(page.schedules).toHaveLength(LIST_DEFAULT)
    expect(page.cursor).toBe(bulkId(4 * LIST_DEFAULT))
  })
})
