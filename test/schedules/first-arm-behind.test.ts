import { env } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { RECORD_RETRY_MS } from "../../src/infra/schedules/stream/directory-recorder.ts"
import type { StreamEventMap, TickReport } from "../../src/infra/schedules/stream/event-map.ts"
import { type TestScheduleStream, testStreamClass } from "../../src/infra/schedules/stream/testing.ts"
import { consumers, resetConsumers, script, seen, waiting } from "../support/consumers.ts"
import { failingD1 } from "../support/fault.ts"
import { openStream, pause, SECOND, T0, type TestStream, until, value } from "../support/streams.ts"

/**
 * An alarm's first arm runs behind its second batch: its storage round trip ends only once the second batch has
 * claimed, and its write may land after what that batch wrote. Both found from outside (helper-20), each seen red
 * before its fix: the due time is read as the arm begins, and a recovery alarm is set after the arms started.
 */
beforeEach(() => resetConsumers())

const id = (i: number) => `b${String(i).padStart(3, "0")}`

/** `n` rows due together a few seconds from now (real clock), so the stream's own alarm delivers them. */
async function backlog(stream: TestStream, n: number) {
  const due = Date.now() + 3 * SECOND
  for (let i = 0; i < n; i++) value(await stream.upsert({ id: id(i), consumer: "test.scripted", at: due }, null))
  return due
}

/**
 * b064.. are still due and unclaimed, and the stored alarm is already due: should this alarm not finish (an
 * eviction), the stored alarm is all that brings them. (An alarm set for a time past is stored as the time it was
 * set at.)
 */
async function expectAlarmDueWhileUnclaimed(stream: TestStream, due: number) {
  const unclaimed = await stream.inside((_, state) =>
    state.storage.sql.exec<{ at: number }>("SELECT min(eligible_at) AS at FROM schedules WHERE id >= ?", id(64)).one(),
  )
  expect(unclaimed.at).toBe(due)
  const alarm = await stream.alarm()
  expect(alarm).not.toBeNull()
  expect(alarm as number).toBeLessThanOrEqual(Date.now())
}

describe("an alarm's first arm, run behind its second batch", () => {
  it("leaves the stored alarm no later than a row still due while the second batch is out", async () => {
    const stream = openStream("first-arm")
    const due = await backlog(stream, 70)
    // The second batch: 31 answer at once, its first row is held; b064.. stay unclaimed and due.
    script.set(id(32), ["wait"])
    await until(() => seen.length === 64 && waiting.length === 1, "the second batch, one delivery held", 20_000)
    await pause()
    await expectAlarmDueWhileUnclaimed(stream, due)
    // One delivery out (not every slot taken), due rows waiting: the first arm had read the slots while the second
    // batch held all 32 and stored now + YIELD_AFTER_MS (30 s).
    await stream.inside(() => waiting[0]?.answer())
    await until(() => seen.length === 70, "the rest of the backlog", 20_000)
  })

  it("leaves the recovery alarm of a storage error in its second batch standing", async () => {
    const stream = openStream("first-arm")
    await backlog(stream, 70)
    const expectRecoveryStood = await failSecondClaim(stream)
    // Not the first arm's write, landing after it.
    await expectRecoveryStood()
  })
})

/**
 * The second batch's claim fails (a storage error, so it arms the recovery alarm, 1 s on) while the first arm's
 * storage round trip is slow (50 ms). Answers the check that the recovery alarm stood: what the first alarm left
 * in storage once its work settled (read before the recovery alarm is due) is what its last tick reported.
 */
async function failSecondClaim(stream: TestStream) {
  const reports: TickReport[] = []
  const after: { stored?: number | null } = {}
  await stream.inside((instance, state) => {
    const ticker = instance.tickerForTests()
    const tick = ticker.tick.bind(ticker)
    ticker.tick = async (...args) => {
      const report = await tick(...args)
      reports.push(report)
      return report
    }
    // The second batch's claim fails (a storage error): it arms the recovery alarm, 1 s on.
    const store = instance.storeForTests()
    const selectDue = store.selectDue.bind(store)
    let selects = 0
    store.selectDue = (...args) => {
      if (++selects === 2) throw new Error("injected storage error in the second batch's claim")
      return selectDue(...args)
    }
    // The first arm's storage round trip is slow (50 ms): the second batch fails and recovers meanwhile.
    const getAlarm = state.storage.getAlarm.bind(state.storage)
    let gets = 0
    state.storage.getAlarm = async (options) => {
      if (++gets === 1) await new Promise((resolve) => setTimeout(resolve, 50))
      return getAlarm(options)
    }
    // What the first alarm left in storage, read once its work settled (and before the recovery alarm is due).
    const alarm = instance.alarm.bind(instance)
    instance.alarm = async (...args) => {
      await alarm(...args)
      if ("stored" in after) return
      await new Promise((resolve) => setTimeout(resolve, 200))
      after.stored = await getAlarm()
    }
  })
  /** The recovery alarm the second batch reported is the one stored; the backlog is then delivered. */
  return async () => {
    await until(() => "stored" in after, "the first alarm", 20_000)
    const last = reports[1] as TickReport
    expect(reports.map((r) => [r.claimed, r.error !== undefined])).toEqual([
      [32, false],
      [0, true],
    ])
    expect(last.alarm).toBeGreaterThan(last.now)
    expect(after.stored).toBe(last.alarm)
    await until(() => seen.length === 70, "the rest of the backlog, after the recovery", 20_000)
  }
}

/**
 * `n` rows due together a few seconds from now (real clock), upserted while the directory is out, at a stream
 * time chosen so that the failed write is retried `retryAfterDueMs` after the rows are due: the alarm's first arm
 * (behind its second batch) then writes to the directory again, and fails again.
 */
async function backlogWithDirectoryOut(stream: TestStream, n: number, retryAfterDueMs: number) {
  const outage = failingD1(env.DB)
  await stream.inside((instance) => instance.useDatabase(outage.db))
  const due = Date.now() + 3 * SECOND
  const retryAt = due + retryAfterDueMs
  for (let i = 0; i < n; i++)
    value(await stream.upsert({ id: id(i), consumer: "test.scripted", at: due }, retryAt - RECORD_RETRY_MS))
  await stream.setNow(undefined)
  // The alarm: the rows' due time (the directory retry comes after it).
  expect(await stream.alarm()).toBe(due)
  return { due, retryAt, outage }
}

describe("an alarm's first arm behind its second batch, when its directory write fails", () => {
  it("leaves the stored alarm no later than a row still due while the second batch is out", async () => {
    const stream = openStream("behind-d1")
    const { due, retryAt, outage } = await backlogWithDirectoryOut(stream, 70, SECOND)
    // The first batch holds b000 until the directory retry is due; the second batch holds all 32 of its rows.
    script.set(id(0), ["wait"])
    for (let i = 32; i < 64; i++) script.set(id(i), ["wait"])
    await until(() => seen.length === 32 && waiting.length === 1, "the first batch, b000 held", 20_000)
    await until(() => Date.now() > retryAt + 100, "the directory retry due", 5_000)
    const writes = outage.calls.length
    await stream.inside(() => waiting[0]?.answer())
    await until(() => seen.length === 64 && waiting.length === 33, "the second batch, all held", 20_000)
    // The first arm's directory write, failing again (it then re-sets the alarm for the retry).
    await until(() => outage.calls.length > writes, "the first arm's directory write", 5_000)
    await pause(200)
    // All but one of the second batch answer: one slot taken, b064.. still due and unclaimed.
    await stream.inside(() => {
      for (const held of waiting.slice(2)) held.answer()
    })
    await pause(100)
    await expectAlarmDueWhileUnclaimed(stream, due)
    // The arm's second set (after the directory failure) had read the slots while the second batch held all 32,
    // and stored now + YIELD_AFTER_MS (30 s), as the first set once did.
    await stream.inside(() => waiting[1]?.answer())
    await until(() => seen.length === 70, "the rest of the backlog", 20_000)
  })

  it("leaves the recovery alarm of a storage error in the second batch standing", async () => {
    const stream = openStream("behind-d1")
    const { retryAt } = await backlogWithDirectoryOut(stream, 70, SECOND)
    const expectRecoveryStood = await failSecondClaim(stream)
    // The first batch holds b000 until the directory retry is due, so the first arm writes (and fails).
    script.set(id(0), ["wait"])
    await until(() => seen.length === 32 && waiting.length === 1, "the first batch, b000 held", 20_000)
    await until(() => Date.now() > retryAt + 100, "the directory retry due", 5_000)
    await stream.inside(() => waiting[0]?.answer())
    // The first arm (started before it) once re-set the alarm after its directory write failed, to the rows' due
    // time, undoing the recovery's backoff.
    await expectRecoveryStood()
  })
})

describe("a recovery alarm's events", () => {
  it("bracket its write, as event-map.ts says and the simulator's oracle relies on", async () => {
    const stream = openStream("recovery-events")
    const heard: string[] = []
    const on = {
      "recovery:arming": () => void heard.push("recovery:arming"),
      "recovery:armed": ({ at }: StreamEventMap["recovery:armed"]) => void heard.push(`recovery:armed ${at}`),
    }
    let built: TestScheduleStream | undefined
    const through = <R>(call: (instance: TestScheduleStream, state: DurableObjectState) => Promise<R>) =>
      stream.inside((_, state) => {
        built ??= new (testStreamClass({ consumers, on }))(state, env)
        built.setNow(T0)
        return call(built, state)
      })
    value(await through((s) => s.upsert(stream.name, { id: "x", consumer: "test.scripted", at: T0 })))
    const report = await through(async (s, state) => {
      const setAlarm = state.storage.setAlarm.bind(state.storage)
      state.storage.setAlarm = (at, options) => {
        heard.push(`setAlarm ${Number(at)}`)
        return setAlarm(at, options)
      }
      const store = s.storeForTests()
      store.selectDue = () => {
        throw new Error("injected storage error in the claim")
      }
      return s.tick()
    })
    expect(report.error).toBeDefined()
    expect(report.alarm).toBe(T0 + SECOND)
    // "recovery:armed: the recovery alarm's write was issued" (event-map.ts); alarm.ts: "the two events bracket
    // the call itself". A write after both would be taken by test/sim/world.ts for an ordinary arm (no recovery
    // counted, and a recovery alarm past a due row judged a broken rule).
    expect(heard).toEqual(["recovery:arming", `setAlarm ${T0 + SECOND}`, `recovery:armed ${T0 + SECOND}`])
  })
})
