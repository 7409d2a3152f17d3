import { env } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { recoveryDelay } from "../../src/infra/backoff.ts"
import { RECORD_RETRY_MS, RETRY_META_KEY } from "../../src/infra/schedules/stream/directory-recorder.ts"
import type { StreamEventMap } from "../../src/infra/schedules/stream/event-map.ts"
import { type TestScheduleStream, testStreamClass } from "../../src/infra/schedules/stream/testing.ts"
import { consumers, resetConsumers } from "../support/consumers.ts"
import { failingD1 } from "../support/fault.ts"
import { openStream, pause, SECOND, T0, type TestStream, until, value } from "../support/streams.ts"

/**
 * Arms, recoveries and the directory's retry, side by side (a third review from outside, helper-22, of the alarm's
 * first arm run behind its second batch). Each test was seen red before its fix (alarm.ts): a directory retry
 * re-set skipped for as long as a recovery was in effect, a re-set from a time gone stale, and a recovery's
 * events reporting another recovery's delay. A fourth (helper-23) found the first arm's re-set from the due
 * time it read before its second batch landing over a newer arm's earlier one.
 */
beforeEach(() => resetConsumers())

const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** A tick whose claim hits a storage error: the stream is then recovering (recoveryMs > 0) until a tick succeeds. */
async function recovering(stream: TestStream) {
  value(await stream.upsert({ id: "x", consumer: "test.scripted", at: T0 + HOUR }, T0))
  await stream.inside((instance) => {
    const store = instance.storeForTests()
    const selectDue = store.selectDue.bind(store)
    let selects = 0
    store.selectDue = (...args) => {
      if (++selects === 1) throw new Error("injected storage error in the claim")
      return selectDue(...args)
    }
  })
  const report = await stream.tick(T0)
  expect(report.error).toBeDefined()
  expect(report.alarm).toBe(T0 + SECOND)
  // The directory goes out.
  const outage = failingD1(env.DB)
  await stream.inside((instance) => instance.useDatabase(outage.db))
  return outage
}

/**
 * Holds the storage's getAlarm until `release`: an arm's storage round trip still out. Only its `nth` call is
 * held when given, every call otherwise; `calls` counts them.
 */
function holdGetAlarm(state: DurableObjectState, nth?: number) {
  const getAlarm = state.storage.getAlarm.bind(state.storage)
  let release!: () => void
  let count = 0
  const slow = new Promise<void>((resolve) => {
    release = resolve
  })
  state.storage.getAlarm = async (options) => {
    if (++count === nth || nth === undefined) await slow
    return getAlarm(options)
  }
  return { getAlarm, release, calls: () => count }
}

/** A full first batch (32 due at T0), then nothing due before T0 + 1 h. */
async function fullBatchThenFar(stream: TestStream) {
  for (let i = 0; i < 32; i++)
    value(await stream.upsert({ id: `b${String(i).padStart(2, "0")}`, consumer: "test.scripted", at: T0 }, T0))
  value(await stream.upsert({ id: "far", consumer: "test.scripted", at: T0 + HOUR }, T0))
}

const retryMeta = (stream: TestStream) => stream.inside((instance) => instance.storeForTests().meta(RETRY_META_KEY))

describe("a directory write that fails while a recovery is in effect (recoveryMs > 0)", () => {
  it("an upsert's arm still keeps the alarm no later than the directory retry", async () => {
    const stream = openStream("recovering-upsert")
    const outage = await recovering(stream)
    const now = T0 + 100
    // Earlier than the recorded T0 + 1 h: the arm writes the directory, which fails.
    value(await stream.upsert({ id: "y", consumer: "test.scripted", at: T0 + 30 * MINUTE }, now))
    expect(outage.calls.length).toBeGreaterThan(0)
    expect(Number(await retryMeta(stream))).toBe(now + RECORD_RETRY_MS)
    // The arm's own set already replaced the recovery alarm (T0 + 1 s) with T0 + 30 min, so nothing "stands":
    // skipping the re-set (as once while a recovery was in effect) left the directory retry out for half an hour.
    expect(await stream.alarm()).toBeLessThanOrEqual(now + RECORD_RETRY_MS)
  })

  it("the watchdog's nudge (rewrite) still keeps the alarm no later than the directory retry", async () => {
    const stream = openStream("recovering-nudge")
    const outage = await recovering(stream)
    const now = T0 + 100
    await stream.setNow(now)
    const reply = value(await stream.stub.nudge(stream.name))
    expect(reply.ticked).toBe(false)
    expect(outage.calls.length).toBeGreaterThan(0)
    expect(Number(await retryMeta(stream))).toBe(now + RECORD_RETRY_MS)
    // The nudge exists to repair a stale directory entry; its failed rewrite is retried only at T0 + 1 h.
    expect(await stream.alarm()).toBeLessThanOrEqual(now + RECORD_RETRY_MS)
  })
})

/** A D1 whose statements all answer only when `fail()` is called, then with an outage. */
function heldD1(real: D1Database) {
  const calls: string[] = []
  let fail!: () => void
  const held = new Promise<never>((_, reject) => {
    fail = () => reject(new Error("D1_ERROR: simulated outage"))
  })
  held.catch(() => undefined)
  const answer = () => held
  const db = new Proxy(real, {
    get(target, property, receiver) {
      if (property === "prepare") {
        return (query: string) => {
          calls.push(query)
          const statement = { bind: () => statement, all: answer, run: answer, raw: answer, first: answer }
          return statement
        }
      }
      if (property === "batch") return answer
      const v = Reflect.get(target, property, receiver)
      return typeof v === "function" ? v.bind(target) : v
    },
  })
  return { db, calls, fail }
}

describe("an arm's re-set after its directory write failed", () => {
  it("does not overwrite a newer arm's earlier time with its own stale one", async () => {
    const stream = openStream("stale-reset")
    value(await stream.upsert({ id: "x", consumer: "test.scripted", at: T0 + HOUR }, T0))
    const alarm = await stream.inside(async (instance, state) => {
      instance.setNow(T0)
      const d1 = heldD1(env.DB)
      instance.useDatabase(d1.db)
      // Arm X: next T0 + 10 min (earlier than recorded), its directory write held.
      const first = instance.upsert(stream.name, { id: "far", consumer: "test.scripted", at: T0 + 10 * MINUTE })
      await until(() => d1.calls.length > 0, "arm X's directory write")
      // Arm Y (a concurrent upsert of a row due in 5 s): its storage round trip ends after X's write failed.
      const { getAlarm, release } = holdGetAlarm(state)
      const second = instance.upsert(stream.name, { id: "near", consumer: "test.scripted", at: T0 + 5 * SECOND })
      await pause(20)
      d1.fail() // X's write fails: X queues its re-set behind Y's set, with X's `next` (T0 + 10 min)
      await pause(20)
      release()
      value(await first)
      value(await second)
      state.storage.getAlarm = getAlarm
      return getAlarm()
    })
    // Y set T0 + 5 s; a re-set of X from its own time would write earliest(T0 + 10 min, retry T0 + 30 s).
    expect(alarm).toBeLessThanOrEqual(T0 + 5 * SECOND)
  })
})

describe("two recoveries queued behind one arm", () => {
  it("each report their own delay (recovery:arming means what event-map.ts says)", async () => {
    const stream = openStream("two-recoveries")
    const heard: Array<
      ({ kind: "arming" } & StreamEventMap["recovery:arming"]) | ({ kind: "armed" } & StreamEventMap["recovery:armed"])
    > = []
    const on = {
      "recovery:arming": (e: StreamEventMap["recovery:arming"]) => void heard.push({ kind: "arming", ...e }),
      "recovery:armed": (e: StreamEventMap["recovery:armed"]) => void heard.push({ kind: "armed", ...e }),
    }
    const quiet = { record: () => Promise.resolve(), retryAt: () => null }
    await stream.inside(async (_, state) => {
      const built: TestScheduleStream = new (testStreamClass({ consumers, on, recorder: quiet }))(state, env)
      built.setNow(T0)
      value(await built.upsert(stream.name, { id: "x", consumer: "test.scripted", at: T0 }))
      const { getAlarm, release } = holdGetAlarm(state)
      // An arm out (an upsert's), then two ticks whose claims fail (the alarm's and a nudge's, say).
      const upserting = built.upsert(stream.name, { id: "y", consumer: "test.scripted", at: T0 + HOUR })
      built.storeForTests().selectDue = () => {
        throw new Error("injected storage error in the claim")
      }
      const ticks = [built.tick(), built.tick()]
      await pause(10)
      release()
      await Promise.all([upserting, ...ticks])
      state.storage.getAlarm = getAlarm
    })
    expect(heard.map((e) => e.kind)).toEqual(["arming", "armed", "arming", "armed"])
    for (let i = 0; i < heard.length; i += 2) {
      const arming = heard[i] as { kind: "arming" } & StreamEventMap["recovery:arming"]
      const armed = heard[i + 1] as { kind: "armed" } & StreamEventMap["recovery:armed"]
      expect({ delayMs: arming.delayMs, at: armed.at }).toEqual({
        delayMs: recoveryDelay(arming.previousMs),
        at: arming.now + recoveryDelay(arming.previousMs),
      })
    }
  })
})

describe("an alarm's first arm (not waited for) whose directory write fails late", () => {
  it("does not re-set the alarm from its pre-read due time over a newer arm's earlier one", async () => {
    const stream = openStream("arm4-stale-first")
    await fullBatchThenFar(stream)
    const result = await stream.inside(async (instance, state) => {
      instance.setNow(T0)
      const d1 = heldD1(env.DB)
      instance.useDatabase(d1.db)
      // The storage's second getAlarm after the alarm starts (its last arm's set) is held until `release`.
      const { getAlarm, release, calls } = holdGetAlarm(state, 2)
      const running = instance.alarm()
      // The first arm set T0 + 1 h and its directory write (T0 + 1 h, later than recorded T0) is out.
      await until(() => d1.calls.length > 0 && calls() >= 2, "the first arm's write out, the last arm's set held")
      // An upsert of a row due in 5 s while the alarm runs (its input gate open on the D1 write).
      const upserting = instance.upsert(stream.name, { id: "near", consumer: "test.scripted", at: T0 + 5 * SECOND })
      await pause(20)
      d1.fail() // the first arm's write fails: its re-set (from T0 + 1 h) queues behind the held sets
      await pause(20)
      release()
      await running
      value(await upserting)
      await pause(20)
      state.storage.getAlarm = getAlarm
      return {
        alarm: await getAlarm(),
        near: state.storage.sql.exec<{ at: number }>("SELECT eligible_at AS at FROM schedules WHERE id = 'near'").one()
          .at,
      }
    })
    expect(result.near).toBe(T0 + 5 * SECOND)
    // Once T0 + 30 s: the first arm's re-set from the due time it read before its second batch (T0 + 1 h) and the
    // directory retry, over the upsert's T0 + 5 s. Its re-set now reads the due time again.
    expect(result.alarm).toBeLessThanOrEqual(T0 + 5 * SECOND)
    expect(RECORD_RETRY_MS).toBe(30 * SECOND)
  })
})

describe("an alarm's first arm held out, the directory healthy", () => {
  it("an upsert during the alarm still leaves the stored alarm no later than its row", async () => {
    const stream = openStream("arm4-healthy")
    await fullBatchThenFar(stream)
    const alarm = await stream.inside(async (instance, state) => {
      instance.setNow(T0)
      // The first arm's getAlarm is held until the upsert has committed.
      const { getAlarm, release, calls } = holdGetAlarm(state, 1)
      const running = instance.alarm()
      await until(() => calls() >= 1, "the first arm's set out")
      const upserting = instance.upsert(stream.name, { id: "near", consumer: "test.scripted", at: T0 + 5 * SECOND })
      await pause(20)
      release()
      await running
      value(await upserting)
      await pause(20)
      state.storage.getAlarm = getAlarm
      return getAlarm()
    })
    expect(alarm).toBe(T0 + 5 * SECOND)
  })
})
