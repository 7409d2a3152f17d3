import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test"
import { beforeAll, beforeEach, describe, expect, it } from "vitest"
import { onceAnswers, resetConsumers, script, waiting } from "../support/consumers.ts"
import { storedRows } from "../support/stored.ts"
import {
  keyOf,
  openStream,
  SECOND,
  storedRow,
  T0,
  type TestStream,
  type TestStub,
  tickAt,
  until,
  value,
} from "../support/streams.ts"

const DUE = T0 + 3_600 * SECOND
/** test.once's claim: the default 30 s deadline plus the 30 s margin. */
const LEASE = 60 * SECOND

const countOf = async (key: string) =>
  (await env.DB.prepare("SELECT n FROM test_once_counts WHERE key = ?").bind(key).first<number>("n")) ?? 0

/** A new stub to the same stream: after abortAllDurableObjects() every existing stub fails for good. */
function reconnect(stream: TestStream) {
  const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(stream.name))
  return {
    tick: (now: number) => tickAt(stub as unknown as TestStub, now),
    row: (id: string) =>
      runInDurableObject(stub, (_, state) => storedRows(state.storage.sql).find((row) => row.id === id)),
  }
}

describe("ctx.once in a consumer", () => {
  beforeAll(async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS test_once_counts (key TEXT PRIMARY KEY, n INTEGER NOT NULL)")
  })
  beforeEach(() => resetConsumers())

  it("counts once when the object is evicted between the commit and the settlement", async () => {
    const stream = openStream("once-evicted")
    const id = "evicted-after-commit"
    script.set(id, ["wait", "ok"])
    value(await stream.upsert({ id, consumer: "test.once", at: DUE }))
    const key = await keyOf(stream, id, 1)

    const interrupted = stream.tick(DUE).then(
      () => "finished",
      () => "aborted",
    )
    // The batch has committed: the delivery is parked after once answered, before its answer is settled.
    await until(() => waiting.length === 1, "the delivery to commit and wait")
    expect(await countOf(key)).toBe(1)
    await abortAllDurableObjects()
    expect(await interrupted).toBe("aborted")

    const restarted = reconnect(stream)
    expect(await storedRow(restarted, id)).toMatchObject({ state: "scheduled", occurrence: 1, attempts: 1 })
    expect(await restarted.tick(DUE + LEASE + SECOND)).toMatchObject({ claimed: 1, delivered: 1 })

    expect(await countOf(key)).toBe(1)
    expect(onceAnswers).toEqual([
      { key, attempt: 1, status: "applied" },
      { key, attempt: 2, status: "duplicate" },
    ])
    expect(await storedRow(restarted, id)).toMatchObject({ state: "completed", occurrence: 1 })
  })

  it("counts once when the answer times out after the commit and the occurrence is retried", async () => {
    const stream = openStream("once-timed-out")
    const id = "timed-out-after-commit"
    script.set(id, ["hang", "ok"])
    value(await stream.upsert({ id, consumer: "test.once-quick", at: DUE }))
    const key = await keyOf(stream, id, 1)

    expect(await stream.tick(DUE)).toMatchObject({ claimed: 1, delivered: 0, retried: 1 })
    expect(await countOf(key)).toBe(1)
    // The durable backoff's first step is 1 s.
    expect(await stream.tick(DUE + 2 * SECOND)).toMatchObject({ claimed: 1, delivered: 1 })

    expect(await countOf(key)).toBe(1)
    expect(onceAnswers.map((a) => [a.attempt, a.status])).toEqual([
      [1, "applied"],
      [2, "duplicate"],
    ])
    expect(await storedRow(stream, id)).toMatchObject({ state: "completed" })
  })
})
