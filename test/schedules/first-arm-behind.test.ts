import { beforeEach, describe, expect, it } from "vitest"
import type { TickReport } from "../../src/infra/schedules/stream/event-map.ts"
import { resetConsumers, script, seen, waiting } from "../support/consumers.ts"
import { openStream, pause, SECOND, type TestStream, until, value } from "../support/streams.ts"

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

describe("an alarm's first arm, run behind its second batch", () => {
  it("leaves the stored alarm no later than a row still due while the second batch is out", async () => {
    const stream = openStream("first-arm")
    const due = await backlog(stream, 70)
    // The second batch: 31 answer at once, its first row is held; b064.. stay unclaimed and due.
    script.set(id(32), ["wait"])
    await until(() => seen.length === 64 && waiting.length === 1, "the second batch, one delivery held", 20_000)
    await pause()
    const unclaimed = await stream.inside((_, state) =>
      state.storage.sql
        .exec<{ at: number }>("SELECT min(eligible_at) AS at FROM schedules WHERE id >= ?", id(64))
        .one(),
    )
    expect(unclaimed.at).toBe(due)
    // One delivery out (not every slot taken), due rows waiting: should this alarm not finish (an eviction),
    // the stored alarm is all that brings them. The first arm read the slots while the second batch held all
    // 32 and stored now + YIELD_AFTER_MS (30 s) instead.
    // (An alarm set for a time past is stored as the time it was set at: it is due now, not 30 s on.)
    const alarm = await stream.alarm()
    expect(alarm).not.toBeNull()
    expect(alarm as number).toBeLessThanOrEqual(Date.now())
    await stream.inside(() => waiting[0]?.answer())
    await until(() => seen.length === 70, "the rest of the backlog", 20_000)
  })

  it("leaves the recovery alarm of a storage error in its second batch standing", async () => {
    const stream = openStream("first-arm")
    await backlog(stream, 70)
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
    await until(() => "stored" in after, "the first alarm", 20_000)
    const last = reports[1] as TickReport
    expect(reports.map((r) => [r.claimed, r.error !== undefined])).toEqual([
      [32, false],
      [0, true],
    ])
    expect(last.alarm).toBeGreaterThan(last.now)
    // The recovery alarm the second batch reported is the one stored, not the first arm's later write.
    expect(after.stored).toBe(last.alarm)
    await until(() => seen.length === 70, "the rest of the backlog, after the recovery", 20_000)
  })
})
