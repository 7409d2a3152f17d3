import { env, evictDurableObject, introspectWorkflow } from "cloudflare:test"
import { beforeAll, beforeEach, describe, expect, it } from "vitest"
import { monthlyStatement } from "../../src/slices/statements/consumers.ts"
import { onceAnswers, resetConsumers, script, seen } from "../support/consumers.ts"
import { openStream, RETAINED, SECOND, storageAt, T0, type TestStream, value } from "../support/streams.ts"

const MINUTE = 60 * SECOND
const DAY = 24 * 60 * MINUTE
/** When the id comes back: a day after the first row was swept by the default window. */
const AGAIN = T0 + RETAINED + 2 * DAY

/** How the first row of an id goes after its one delivery at T0: removed at once, or deleted by retention. */
const endings: Array<[string, (stream: TestStream, id: string) => Promise<void>]> = [
  ["removed", async (stream, id) => void value(await stream.remove(id, T0 + MINUTE))],
  [
    "swept by retention",
    async (stream, id) => {
      await stream.tick(T0 + RETAINED)
      expect(await stream.row(id)).toBeUndefined()
    },
  ],
]

const countOf = async (key: string) =>
  (await env.DB.prepare("SELECT n FROM test_once_counts WHERE key = ?").bind(key).first<number>("n")) ?? 0

beforeAll(async () => {
  await env.DB.exec("CREATE TABLE IF NOT EXISTS test_once_counts (key TEXT PRIMARY KEY, n INTEGER NOT NULL)")
})
beforeEach(() => resetConsumers())

describe("an id created again after its row was deleted is a new schedule: no key of the old one counts for it", () => {
  it.each(endings)("ctx.once commits again when the first row was %s", async (_, end) => {
    const stream = openStream("reused-once")
    const oneShot = (at: number) => ({ id: "reminder", consumer: "test.once", at })
    value(await stream.upsert(oneShot(T0)))
    expect(await stream.tick(T0)).toMatchObject({ delivered: 1 })
    await end(stream, "reminder")

    value(await stream.upsert(oneShot(AGAIN), AGAIN - MINUTE))
    expect(await stream.tick(AGAIN)).toMatchObject({ delivered: 1 })

    // The second schedule's occurrence 1 is a delivery of its own: its writes are committed, under a key of its own.
    expect(onceAnswers.map((answer) => answer.status)).toEqual(["applied", "applied"])
    const [first, second] = onceAnswers.map((answer) => answer.key) as [string, string]
    expect(second).not.toBe(first)
    expect([await countOf(first), await countOf(second)]).toEqual([1, 1])
  })

  it.each(endings)("the Workflow hand-off starts a second instance when the first row was %s", async (_, end) => {
    const stream = openStream("reused-workflow")
    const statement = (at: number) => ({
      id: "monthly-statement",
      consumer: monthlyStatement.name,
      at,
      payload: { account: stream.name },
    })
    await using instances = await introspectWorkflow(env.STATEMENTS)
    value(await stream.upsert(statement(T0)))
    expect(await stream.tick(T0)).toMatchObject({ delivered: 1 })
    await end(stream, "monthly-statement")

    value(await stream.upsert(statement(AGAIN), AGAIN - MINUTE))
    expect(await stream.tick(AGAIN)).toMatchObject({ delivered: 1 })

    // Delivered, and by an instance that ran for it: not by the first schedule's instance found under the same id.
    const started = await instances.get()
    expect(started).toHaveLength(2)
    for (const instance of started) await instance.waitForStatus("complete")
    expect(await Promise.all(started.map((instance) => instance.getOutput()))).toEqual([
      expect.objectContaining({ account: stream.name, occurrence: 1 }),
      expect.objectContaining({ account: stream.name, occurrence: 1 }),
    ])
  })
})

/** A key's `schedule:<stream>/<id>@<incarnation>` part, without `:<occurrence>`. */
const scheduleOf = (key: string) => key.slice(0, key.lastIndexOf(":"))
const occurrenceOf = (key: string) => Number(key.slice(key.lastIndexOf(":") + 1))

describe("one row keeps its keys' incarnation for its whole life", () => {
  it("through retries, an eviction, a cancel, a restarting upsert and the occurrences after it", async () => {
    const stream = openStream("one-row")
    const hourly = { id: "hourly", consumer: "test.scripted", every: "1 hour" }
    value(await stream.upsert(hourly))
    script.set("hourly", ["retry", "ok", "ok"])
    await stream.tick(T0 + 60 * MINUTE)
    await evictDurableObject(stream.stub)
    await stream.tick(T0 + 60 * MINUTE + 2 * SECOND)
    value(await stream.cancel("hourly", T0 + 70 * MINUTE))
    value(await stream.upsert(hourly, T0 + 80 * MINUTE))
    await stream.tick(T0 + 140 * MINUTE)

    const keys = seen.map((s) => s.delivery.idempotencyKey)
    expect(keys.map(occurrenceOf)).toEqual([1, 1, 2])
    expect(new Set(keys.map(scheduleOf)).size).toBe(1)
    expect(scheduleOf(keys[0] as string)).toMatch(new RegExp(`^schedule:${stream.name}/hourly@[0-9a-f]{12}$`))
    // The view names the key of its occurrence, now the third.
    expect(value(await stream.get("hourly"))).toMatchObject({
      occurrence: 3,
      idempotencyKey: `${scheduleOf(keys[0] as string)}:3`,
    })
  })

  it("a row stored before incarnations (schema version 3) keeps its key, schedule:<stream>/<id>:<occurrence>", async () => {
    const stream = openStream("from-v3")
    await stream.inside((_, state) => {
      const sql = state.storage.sql
      storageAt(sql, stream.name, 3)
      // Occurrence 4, retrying: its attempt 3 comes after the upgrade and must carry the key attempts 1 and 2 had.
      sql.exec(
        `INSERT INTO schedules (id, consumer, kind, interval_ms, payload, state, occurrence, next_at, cadence_at,
           retry_at, attempts, last_error, created_at, updated_at)
         VALUES ('legacy', 'test.scripted', 'every', ?, 'null', 'scheduled', 4, ?, ?, ?, 2, 'scripted', ?, ?)`,
        60 * MINUTE,
        T0,
        T0,
        T0 + 2 * SECOND,
        T0 - DAY,
        T0,
      )
    })
    // A fresh object migrates its storage on start.
    await evictDurableObject(stream.stub)
    await stream.tick(T0 + 2 * SECOND)
    await stream.tick(T0 + 60 * MINUTE)

    expect(seen.map((s) => [s.delivery.idempotencyKey, s.delivery.attempt])).toEqual([
      [`schedule:${stream.name}/legacy:4`, 3],
      [`schedule:${stream.name}/legacy:5`, 1],
    ])
  })
})
