import { runDurableObjectAlarm } from "cloudflare:test"
import { beforeEach, describe, expect, it, vi } from "vitest"
import { resetConsumers, script, seen, waiting } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import {
  eventsOf,
  openStream,
  pause,
  RETAINED,
  SECOND,
  seamedStream,
  storedRow,
  T0,
  type TestStream,
  until,
  value,
} from "../support/streams.ts"

const logs = captureLogs()

const answerInside = (stream: TestStream, answer: () => void) => stream.inside(() => answer())

beforeEach(() => resetConsumers())

describe("a tick", () => {
  it("on a fresh stream, before its first upsert, leaves later deliveries their stream's key", async () => {
    const stream = openStream("fresh")
    expect(await stream.tick(T0)).toMatchObject({ claimed: 0 })
    const { idempotencyKey } = value(await stream.upsert({ id: "first", consumer: "test.scripted", at: T0 + SECOND }))
    expect(idempotencyKey).toMatch(new RegExp(`^schedule:${stream.name}/first@[0-9a-f]{12}:1$`))
    expect(await stream.tick(T0 + SECOND)).toMatchObject({ delivered: 1 })
    expect(seen.map((s) => s.delivery.idempotencyKey)).toEqual([idempotencyKey])
  })

  it("settles each delivery as soon as it answers, not after the slowest in its batch", async () => {
    const stream = openStream("tick")
    value(await stream.upsert({ id: "fast", consumer: "test.scripted", at: T0 }))
    value(await stream.upsert({ id: "slow", consumer: "test.scripted", every: "1 hour" }))
    script.set("slow", ["wait"])
    const pending = stream.tick(T0 + HOUR)
    await until(() => waiting.length === 1, "the slow delivery to start")
    // While the slow one is still out, the fast one is already written.
    await until(() => seen.length === 2, "both deliveries")
    expect(await storedRow(stream, "fast")).toMatchObject({ state: "completed", claim_token: null })
    expect(await storedRow(stream, "slow")).toMatchObject({ occurrence: 1, claim_token: expect.any(String) })
    await answerInside(stream, () => waiting[0]?.answer())
    expect(await pending).toMatchObject({ claimed: 2, delivered: 2, inFlight: 0 })
  })

  it("yields while a delivery is still out, and the late answer settles and re-arms the alarm", async () => {
    const stream = openStream("tick")
    const hooked = seamedStream(stream, { yieldAfterMs: 100 })
    value(await hooked.upsert({ id: "slow", consumer: "test.scripted", every: "1 hour" }))
    value(await hooked.upsert({ id: "next", consumer: "test.scripted", at: T0 + 2 * HOUR }))
    script.set("slow", ["wait"])
    const report = await hooked.tick(T0 + HOUR)
    expect(report).toMatchObject({ claimed: 1, inFlight: 1, delivered: 0 })
    const claimed = await storedRow(stream, "slow")
    // While the claim is out, the alarm waits for the other schedule's due time.
    expect(await stream.alarm()).toBe(Math.min(claimed.claim_until as number, T0 + 2 * HOUR))
    await answerInside(stream, () => waiting[0]?.answer())
    await pause()
    const settled = await storedRow(stream, "slow")
    expect(settled).toMatchObject({ occurrence: 2, claim_token: null, next_at: T0 + 2 * HOUR })
    expect((await eventsOf(stream, "slow")).map((e) => e.type)).toContain("schedule/fired")
    expect(await stream.alarm()).toBe(T0 + 2 * HOUR)
  })

  it("sets one deadline timer for a batch's attempts, not one each, and aborts only the attempts still out", async () => {
    const stream = openStream("tick")
    for (let i = 0; i < 32; i++) {
      const id = `quick-${String(i).padStart(2, "0")}`
      value(await stream.upsert({ id, consumer: "test.quick", at: T0 }))
      if (i === 0) script.set(id, ["wait"])
    }
    const deadlines = await stream.inside(async (instance) => {
      const spy = vi.spyOn(globalThis, "setTimeout")
      try {
        instance.setNow(T0 + SECOND)
        expect(await instance.tick()).toMatchObject({ claimed: 32, delivered: 31, retried: 1 })
        // test.quick's deadline is 300 ms.
        return spy.mock.calls.filter(([, ms]) => ms === 300).length
      } finally {
        spy.mockRestore()
      }
    })
    expect(deadlines).toBe(1)
    expect(seen.filter(({ aborted }) => aborted()).map(({ delivery }) => delivery.scheduleId)).toEqual(["quick-00"])
  })

  /** The setTimeout delays of one tick at T0 + 1 s of 32 test.quick deliveries, `answer` run as the tick starts. */
  async function timersOfTick(answer: () => void): Promise<Array<number | undefined>> {
    const stream = openStream("tick")
    for (let i = 0; i < 32; i++) value(await stream.upsert({ id: `quick-${i}`, consumer: "test.quick", at: T0 }))
    return stream.inside(async (instance) => {
      const spy = vi.spyOn(globalThis, "setTimeout")
      try {
        instance.setNow(T0 + SECOND)
        const ticking = instance.tick()
        answer()
        expect(await ticking).toMatchObject({ claimed: 32, delivered: 32 })
        return spy.mock.calls.map(([, ms]) => ms)
      } finally {
        spy.mockRestore()
      }
    })
  }
  // test.quick's deadline, 300 ms, comes before the yield (30 s), and the 32 answers settle in one turn: no yield
  // timer, no end-of-turn settlement timer (the tick's arm may set the directory's own).
  const kinds = (timers: Array<number | undefined>) => ({
    deadline: timers.filter((ms) => ms === 300).length,
    yield: timers.includes(30_000),
    turn: timers.includes(0),
  })

  it("sets no timer at all for a batch whose consumers answer synchronously", async () => {
    expect(kinds(await timersOfTick(() => {}))).toEqual({ deadline: 0, yield: false, turn: false })
  })

  it("sets no timer but the shared deadline for a batch answering its promises at once within the yield", async () => {
    for (let i = 0; i < 32; i++) script.set(`quick-${i}`, ["wait"])
    const answerAll = () => {
      expect(waiting).toHaveLength(32)
      for (const each of waiting.splice(0)) each.answer()
    }
    expect(kinds(await timersOfTick(answerAll))).toEqual({ deadline: 1, yield: false, turn: false })
  })

  it("keeps at most 32 deliveries in flight across ticks that yielded", async () => {
    const stream = openStream("tick")
    const hooked = seamedStream(stream, { yieldAfterMs: 100 })
    for (let i = 0; i < 33; i++) {
      const id = `slow-${String(i).padStart(2, "0")}`
      value(await hooked.upsert({ id, consumer: "test.scripted", at: T0 + i }))
      script.set(id, ["wait"])
    }
    expect(await hooked.tick(T0 + SECOND)).toMatchObject({ claimed: 32, inFlight: 32 })
    // Every slot is taken: the 33rd row waits, and the alarm does not spin on it.
    expect(await hooked.tick(T0 + SECOND)).toMatchObject({ claimed: 0 })
    expect(await stream.alarm()).toBeGreaterThan(T0 + SECOND)
    await answerInside(stream, () => waiting[0]?.answer())
    await pause()
    expect(await hooked.tick(T0 + SECOND)).toMatchObject({ claimed: 1 })
    expect(seen).toHaveLength(33)
    await answerInside(stream, () => {
      for (const parked of waiting.slice(1)) parked.answer()
    })
  })

  it("claims nothing when a storage error interrupts its claims (one transaction), then arms the recovery alarm", async () => {
    const stream = openStream("tick")
    value(await stream.upsert({ id: "a", consumer: "test.scripted", at: T0 }))
    value(await stream.upsert({ id: "b", consumer: "test.scripted", at: T0 + 1 }))
    // The claims' write fails inside their transaction, after the rows were selected.
    await stream.inside((_, state) => {
      const sql = state.storage.sql as unknown as { exec: SqlStorage["exec"] }
      const exec = sql.exec.bind(sql)
      let failed = false
      sql.exec = ((query: string, ...bindings: SqlStorageValue[]) => {
        if (!failed && query.startsWith("INSERT INTO claims")) {
          failed = true
          throw new Error("SQLITE_FULL: simulated")
        }
        return exec(query, ...bindings)
      }) as SqlStorage["exec"]
    })
    const report = await stream.tick(T0 + SECOND)
    expect(report).toMatchObject({ claimed: 0, delivered: 0, error: "Error: SQLITE_FULL: simulated" })
    expect(report.alarm).toBeGreaterThanOrEqual(T0 + 2 * SECOND)
    expect(seen).toEqual([])
    for (const id of ["a", "b"]) {
      expect(await storedRow(stream, id)).toMatchObject({ state: "scheduled", attempts: 0, claim_token: null })
    }
    // The recovery tick claims and delivers both.
    expect(await stream.tick(report.alarm as number)).toMatchObject({ claimed: 2, delivered: 2 })
  })
})

describe("the alarm", () => {
  it("fires at the due time by itself and delivers through alarm() with the real clock", async () => {
    const stream = openStream("alarm")
    const now = Date.now()
    value(await stream.upsert({ id: "soon", consumer: "test.scripted", at: now + 200 }, null))
    expect(await stream.alarm()).toBe(now + 200)
    await until(() => seen.length === 1, "the alarm to deliver", 10_000)
    expect(seen[0]?.delivery).toMatchObject({ scheduleId: "soon", occurrence: 1, attempt: 1 })
    await pause()
    const finished = await storedRow(stream, "soon")
    expect(finished).toMatchObject({ state: "completed" })
    expect(await stream.alarm()).toBe((finished.finished_at as number) + RETAINED)
  })

  it("keeps ticking through a backlog within one alarm, 32 rows at a time, until a batch comes back short", async () => {
    const stream = openStream("backlog")
    const now = Date.now()
    const due = now + 3 * SECOND
    for (let i = 0; i < 100; i++) value(await stream.upsert({ id: `b${i}`, consumer: "test.scripted", at: due }, null))
    const counted = { alarms: 0, claimed: [] as number[] }
    await stream.inside((instance) => {
      const alarm = instance.alarm.bind(instance)
      instance.alarm = () => {
        counted.alarms++
        return alarm()
      }
      const ticker = instance.tickerForTests()
      const tick = ticker.tick.bind(ticker)
      ticker.tick = async (...args) => {
        const report = await tick(...args)
        counted.claimed.push(report.claimed)
        return report
      }
    })
    const claimed = () => counted.claimed.reduce((sum, n) => sum + n, 0)
    await until(() => claimed() === 100, "the alarm's ticks to claim and settle the backlog", 20_000)
    expect(counted).toEqual({ alarms: 1, claimed: [32, 32, 32, 4] })
    expect(seen).toHaveLength(100)
    expect(new Set(seen.map((s) => s.delivery.scheduleId)).size).toBe(100)
    await pause()
    const first = await storedRow(stream, "b0")
    expect(await stream.alarm()).toBeLessThanOrEqual((first.finished_at as number) + RETAINED)
    expect(await stream.alarm()).toBeGreaterThan(Date.now() + RETAINED - 60 * SECOND)
  })

  it("arms at its first batch and when it hands over, not between the batches of one alarm", async () => {
    const stream = openStream("backlog")
    const due = Date.now() + 3 * SECOND
    for (let i = 0; i < 100; i++) value(await stream.upsert({ id: `b${i}`, consumer: "test.scripted", at: due }, null))
    const arms: number[] = []
    const claimed = await watchAlarm(stream, (ticksDone) => void arms.push(ticksDone))
    const counted = { claimed, arms }
    await until(() => counted.claimed.length === 4, "the alarm's four ticks", 20_000)
    // Arms are numbered by the ticks finished before them: the first tick's and the last's.
    expect(counted).toEqual({ claimed: [32, 32, 32, 4], arms: [0, 3] })
    expect(seen).toHaveLength(100)
    // One line for the alarm, its four batches summed: not a line per batch.
    expect(logs.of("schedule.tick")).toEqual([
      expect.objectContaining({ stream: stream.name, batches: 4, claimed: 100, delivered: 100, failed: 0 }),
    ])
    // Its rows summed over the batches too: one written a delivery, a claim record and a journal row a batch,
    // and the last arm's directory mark.
    expect(logs.of("schedule.tick")[0]?.rowsWritten).toBeGreaterThanOrEqual(100 + 2 * 4)
    await pause()
    const first = await storedRow(stream, "b0")
    expect(await stream.alarm()).toBe((first.finished_at as number) + RETAINED)
  })

  it("goes on to its second batch while its first arm is still out, and its last arm stands", async () => {
    const stream = openStream("backlog")
    const due = Date.now() + 3 * SECOND
    for (let i = 0; i < 40; i++) value(await stream.upsert({ id: `b${i}`, consumer: "test.scripted", at: due }, null))
    const held: { release?: () => void } = {}
    let arms = 0
    // The first batch's arm is held back until the alarm's last batch has armed.
    const claimed = await watchAlarm(stream, async () => {
      if (++arms === 1) await new Promise<void>((release) => (held.release = release))
    })
    await until(() => claimed.length === 2, "the alarm's two ticks, its first arm still held", 20_000)
    expect({ claimed, arms }).toEqual({ claimed: [32, 8], arms: 2 })
    expect(seen).toHaveLength(40)
    await answerInside(stream, () => held.release?.())
    await pause()
    // The held arm, ending last, sets what is due then: the retention sweep of the first finished row.
    const first = await storedRow(stream, "b0")
    expect(await stream.alarm()).toBe((first.finished_at as number) + RETAINED)
  })

  it("writes one schedule.tick line per tick() call that claimed something, none for an idle one", async () => {
    const stream = openStream("tick-lines")
    for (let i = 0; i < 40; i++) value(await stream.upsert({ id: `t${i}`, consumer: "test.scripted", at: T0 }))
    expect(await stream.tick(T0)).toMatchObject({ claimed: 32, delivered: 32 })
    expect(await stream.tick(T0)).toMatchObject({ claimed: 8, delivered: 8 })
    expect(await stream.tick(T0)).toMatchObject({ claimed: 0 })
    expect(logs.of("schedule.tick").map((line) => [line.batches, line.claimed, line.delivered])).toEqual([
      [1, 32, 32],
      [1, 8, 8],
    ])
  })

  it("re-arms for what is not yet due when it runs early", async () => {
    const stream = openStream("alarm")
    const later = Date.now() + 3_600_000
    value(await stream.upsert({ id: "later", consumer: "test.scripted", at: later }, null))
    expect(await runDurableObjectAlarm(stream.stub)).toBe(true)
    expect(seen).toHaveLength(0)
    expect(await stream.alarm()).toBe(later)
  })
})

const HOUR = 3_600 * SECOND

/**
 * Watches the stream's alarm from inside its object: `beforeArm` runs as each arm starts, told how many ticks
 * ended before it (it may hold the arm back); answers each tick's claimed count, pushed as the tick ends.
 */
async function watchAlarm(stream: TestStream, beforeArm: (ticksDone: number) => Promise<void> | void) {
  const claimed: number[] = []
  await stream.inside((instance) => {
    const ticker = instance.tickerForTests()
    const arm = ticker.alarm.arm.bind(ticker.alarm)
    ticker.alarm.arm = async (...args) => {
      await beforeArm(claimed.length)
      return arm(...args)
    }
    const tick = ticker.tick.bind(ticker)
    ticker.tick = async (...args) => {
      const report = await tick(...args)
      claimed.push(report.claimed)
      return report
    }
  })
  return claimed
}
