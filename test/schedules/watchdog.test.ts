import { evictDurableObject } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import { Jobs } from "../../src/infra/jobs/index.ts"
import {
  FAILED_NUDGE_RECHECK_MS,
  NUDGE_DEADLINE_MS,
  STALE_AFTER_MS,
  WATCHDOG_BATCH,
  watchdog,
} from "../../src/infra/schedules/directory/watchdog.ts"
import {
  RECORD_RETRY_MS,
  RECORD_SLACK_MS,
  RETRY_META_KEY,
  worthRecording,
} from "../../src/infra/schedules/stream/directory-recorder.ts"
import { resetConsumers, script, seen, waiting } from "../support/consumers.ts"
import { failingD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, RETAINED, SECOND, T0, type TestStream, type TestStub, value } from "../support/streams.ts"

const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

const logs = captureLogs()

beforeEach(async () => {
  resetConsumers()
  // D1 is per test file; each test starts with an empty directory and a fresh watchdog lease.
  await env.DB.batch([
    env.DB.prepare("DELETE FROM schedule_streams"),
    env.DB.prepare("DELETE FROM jobs_leases WHERE name = ?").bind(watchdog.name),
  ])
})

const listed = async (name: string) =>
  (await env.DB.prepare("SELECT 1 FROM schedule_streams WHERE name = ?").bind(name).first()) !== null

const recorded = (name: string) =>
  env.DB.prepare("SELECT next_eligible_at AS at FROM schedule_streams WHERE name = ?").bind(name).first("at")

/**
 * Runs the watchdog job for the slot of `at`, through a SCHEDULES binding that notes each stream it
 * asks for and sets each stream's clock to `at` before its nudge; the claim's clock stands at `at`.
 */
async function runWatchdog(at: number, DB = env.DB) {
  const asked: string[] = []
  const SCHEDULES = new Proxy(env.SCHEDULES, {
    get(target, property) {
      if (property === "idFromName") {
        return (name: string) => {
          asked.push(name)
          return target.idFromName(name)
        }
      }
      if (property === "get") {
        return (id: DurableObjectId) => {
          const stub = target.get(id) as unknown as TestStub
          return {
            nudge: async (stream: string) => {
              await stub.setNow(at)
              return stub.nudge(stream)
            },
          }
        }
      }
      const member = Reflect.get(target, property, target)
      return typeof member === "function" ? member.bind(target) : member
    },
  })
  // The claim's referee, the database's clock, stands at `at` too (the real one would refuse 2100's slot).
  const result = await Jobs.run(watchdog, new Date(at), { env: { ...env, DB, SCHEDULES }, now: () => at })
  return { result, asked, line: logs.of("schedules.watchdog").at(-1) }
}

/** Points the stream's D1 at `db`, so a test counts or fails its directory writes. */
const useDatabase = (stream: TestStream, db: D1Database) => stream.inside((instance) => instance.useDatabase(db))

const directoryWrites = (calls: string[]) => calls.filter((query) => /schedule_streams.*do update/is.test(query))

describe("the alarm watchdog", () => {
  it("brings back a lost alarm more than 2 minutes overdue, delivering the occurrence, and leaves healthy streams alone", async () => {
    const lost = openStream("lost")
    const healthy = openStream("healthy")
    value(await lost.upsert({ id: "every-10", consumer: "test.scripted", every: "10 minutes" }))
    value(await healthy.upsert({ id: "hourly", consumer: "test.scripted", every: "1 hour" }))
    expect(await lost.alarm()).toBe(T0 + 10 * MINUTE)
    expect(await recorded(lost.name)).toBe(T0 + 10 * MINUTE)
    await lost.inside((_, state) => state.storage.deleteAlarm())
    expect(await lost.alarm()).toBeNull()

    // Exactly STALE_AFTER_MS past is not yet stale: the threshold is strict.
    const early = await runWatchdog(T0 + 10 * MINUTE + STALE_AFTER_MS)
    expect(early.asked).toEqual([])
    expect(early.line).toMatchObject({ level: "info", stale: 0, nudged: 0 })
    expect(seen).toHaveLength(0)
    expect(await lost.alarm()).toBeNull()

    const slot = T0 + 13 * MINUTE
    const { result, asked, line } = await runWatchdog(slot)
    expect(result.status).toBe("ran")
    expect(asked).toEqual([lost.name])
    expect(line).toMatchObject({ level: "warn", job: watchdog.name, stale: 1, nudged: 1, failed: 0 })
    expect(seen.map(({ delivery }) => delivery)).toEqual([
      expect.objectContaining({ stream: lost.name, scheduleId: "every-10", occurrence: 1, attempt: 1 }),
    ])
    expect(seen[0]?.delivery.lateByMs).toBeGreaterThanOrEqual(3 * MINUTE)
    // The alarm is back at the smallest eligible_at, and the directory knows it.
    expect(value(await lost.get("every-10"))).toMatchObject({ occurrence: 2, nextAt: T0 + 20 * MINUTE })
    expect(await lost.alarm()).toBe(T0 + 20 * MINUTE)
    expect(await recorded(lost.name)).toBe(T0 + 20 * MINUTE)
    expect(await healthy.alarm()).toBe(T0 + HOUR)

    // Healed: the next minute finds nothing to nudge.
    expect((await runWatchdog(slot + MINUTE)).asked).toEqual([])
  })

  it("re-arms from storage and rewrites a stale entry when nothing is overdue yet", async () => {
    const stream = openStream("stale-entry")
    value(await stream.upsert({ id: "later", consumer: "test.scripted", at: T0 + HOUR }))
    await stream.inside((_, state) => state.storage.deleteAlarm())
    // An entry the stream's storage no longer agrees with, as a write lost on the way would leave.
    await env.DB.prepare("UPDATE schedule_streams SET next_eligible_at = ? WHERE name = ?")
      .bind(T0 - 10 * MINUTE, stream.name)
      .run()

    const { asked, line } = await runWatchdog(T0)
    expect(asked).toEqual([stream.name])
    expect(line).toMatchObject({ stale: 1, nudged: 1, failed: 0 })
    expect(seen).toHaveLength(0)
    expect(await stream.alarm()).toBe(T0 + HOUR)
    expect(await recorded(stream.name)).toBe(T0 + HOUR)
    expect((await runWatchdog(T0 + MINUTE)).asked).toEqual([])
  })

  it(`nudges at most ${WATCHDOG_BATCH} streams a run, the most overdue first, through the partial index`, async () => {
    const extra = 3
    const streams = Array.from({ length: WATCHDOG_BATCH + extra }, () => openStream("many"))
    for (const [i, stream] of streams.entries()) {
      value(await stream.upsert({ id: "once", consumer: "test.scripted", at: T0 + i * SECOND }))
    }
    const d1 = failingD1(env.DB, () => false)
    const first = await runWatchdog(T0 + 10 * MINUTE, d1.db)
    expect(first.result.status).toBe("ran")
    expect(first.line).toMatchObject({ stale: WATCHDOG_BATCH, nudged: WATCHDOG_BATCH, failed: 0 })
    expect(first.asked).toHaveLength(WATCHDOG_BATCH)
    expect(seen.map(({ delivery }) => delivery.stream).sort()).toEqual(
      streams
        .slice(0, WATCHDOG_BATCH)
        .map((s) => s.name)
        .sort(),
    )
    // One directory read for the whole run, served by the partial index with no sort.
    const reads = d1.calls.filter((query) => query.includes("schedule_streams"))
    expect(reads).toHaveLength(1)
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${reads[0]}`)
      .bind(T0, WATCHDOG_BATCH)
      .all<{ detail: string }>()
    const details = plan.results.map((row) => row.detail).join("\n")
    expect(details).toMatch(/USING (COVERING )?INDEX schedule_streams_next_eligible/)
    expect(details).not.toContain("TEMP B-TREE")

    const stillStale = await env.DB.prepare(
      "SELECT name FROM schedule_streams WHERE next_eligible_at < ? ORDER BY name",
    )
      .bind(T0 + 8 * MINUTE)
      .all<{ name: string }>()
    expect(stillStale.results.map((row) => row.name)).toEqual(streams.slice(WATCHDOG_BATCH).map((s) => s.name))

    const second = await runWatchdog(T0 + 11 * MINUTE)
    expect(second.asked.sort()).toEqual(streams.slice(WATCHDOG_BATCH).map((s) => s.name))
    expect(seen).toHaveLength(WATCHDOG_BATCH + extra)
  })

  it("waits a bounded time for each nudge and goes on with the others", async () => {
    const slow = openStream("slow")
    const quick = openStream("quick")
    value(await slow.upsert({ id: "waits", consumer: "test.scripted", at: T0 }))
    value(await quick.upsert({ id: "answers", consumer: "test.scripted", at: T0 + SECOND }))
    script.set("waits", ["wait"])

    const started = Date.now()
    const { result, line } = await runWatchdog(T0 + 5 * MINUTE)
    const took = Date.now() - started
    expect(result.status).toBe("ran")
    expect(line).toMatchObject({
      stale: 2,
      nudged: 1,
      failed: 1,
      failures: [{ stream: slow.name, error: `no answer within ${NUDGE_DEADLINE_MS} ms` }],
    })
    // Bounded: it waited out the slow nudge's deadline, not the slow delivery (a loaded machine may add seconds).
    expect(took).toBeGreaterThanOrEqual(NUDGE_DEADLINE_MS - 50)
    expect(took).toBeLessThan(3 * NUDGE_DEADLINE_MS)
    expect(value(await quick.get("answers")).state).toBe("completed")
    // The failed stream goes behind the others: the next runs look at it 10 minutes later.
    expect(await recorded(slow.name)).toBe(T0 + 5 * MINUTE + FAILED_NUDGE_RECHECK_MS)
    expect((await runWatchdog(T0 + 6 * MINUTE)).line).toMatchObject({ stale: 0 })

    // The stream went on with the nudge: its delivery is out, and settles when it answers.
    expect(waiting).toHaveLength(1)
    await slow.inside(() => waiting[0]?.answer())
    await expect.poll(async () => value(await slow.get("waits")).state).toBe("completed")
  })
})

describe("the directory entry", () => {
  it("is written about once a minute for 1-second schedules, and such a stream never looks stale", async () => {
    const stream = openStream("every-second")
    const d1 = failingD1(env.DB, () => false)
    await useDatabase(stream, d1.db)
    value(await stream.upsert({ id: "tick-tock", consumer: "test.scripted", every: "1 second" }))
    expect(directoryWrites(d1.calls)).toHaveLength(1)
    expect(await recorded(stream.name)).toBe(T0 + SECOND)

    for (let s = 1; s <= 130; s++) {
      const report = await stream.tick(T0 + s * SECOND)
      expect(report).toMatchObject({ delivered: 1, alarm: T0 + (s + 1) * SECOND })
      const entry = (await recorded(stream.name)) as number
      // The entry trails the alarm by at most the slack, never leads it.
      expect(entry).toBeLessThanOrEqual(report.alarm as number)
      expect(entry).toBeGreaterThanOrEqual((report.alarm as number) - RECORD_SLACK_MS)
    }
    // T0+1s at the upsert, then T0+62s and T0+123s: three writes for 131 alarm moves.
    expect(directoryWrites(d1.calls)).toHaveLength(3)
    expect(await recorded(stream.name)).toBe(T0 + 123 * SECOND)

    const { asked } = await runWatchdog(T0 + 130 * SECOND + STALE_AFTER_MS)
    expect(asked).toEqual([])
    await useDatabase(stream, env.DB)
  })

  it("is written when the alarm moves earlier or later by more than a minute, and goes when the stream is empty", async () => {
    const stream = openStream("moves")
    const d1 = failingD1(env.DB, () => false)
    await useDatabase(stream, d1.db)
    const writes = () => directoryWrites(d1.calls).length
    value(await stream.upsert({ id: "hourly", consumer: "test.scripted", every: "1 hour" }))
    expect([writes(), await recorded(stream.name)]).toEqual([1, T0 + HOUR])

    value(await stream.upsert({ id: "a", consumer: "test.scripted", at: T0 + 30 * MINUTE }))
    expect([writes(), await recorded(stream.name)]).toEqual([2, T0 + 30 * MINUTE])
    // Earlier always counts, even by seconds.
    value(await stream.upsert({ id: "b", consumer: "test.scripted", at: T0 + 30 * MINUTE - 10 * SECOND }))
    expect([writes(), await recorded(stream.name)]).toEqual([3, T0 + 30 * MINUTE - 10 * SECOND])
    // Later by 10 s: the alarm moves, the entry does not.
    value(await stream.cancel("b"))
    expect(await stream.alarm()).toBe(T0 + 30 * MINUTE)
    expect([writes(), await recorded(stream.name)]).toEqual([3, T0 + 30 * MINUTE - 10 * SECOND])
    // A same-definition upsert leaves the alarm alone and writes nothing.
    value(await stream.upsert({ id: "hourly", consumer: "test.scripted", every: "1 hour" }, T0 + MINUTE))
    expect(writes()).toBe(3)
    // Later by 30 minutes: written.
    value(await stream.cancel("a"))
    expect([writes(), await recorded(stream.name)]).toEqual([4, T0 + HOUR])
    // Nothing scheduled: the alarm waits for the first finished row to leave the retention window.
    value(await stream.cancel("hourly"))
    expect(await stream.alarm()).toBe(T0 + RETAINED)
    expect([writes(), await recorded(stream.name)]).toEqual([5, T0 + RETAINED])
    value(await stream.resume("hourly"))
    expect([writes(), await recorded(stream.name)]).toEqual([6, T0 + HOUR])
    // A stream that holds nothing any more is forgotten: no alarm, no entry.
    value(await stream.cancel("hourly"))
    for (const id of ["hourly", "a", "b"]) value(await stream.remove(id))
    expect(await stream.alarm()).toBeNull()
    expect(await listed(stream.name)).toBe(false)
    await useDatabase(stream, env.DB)
  })

  it("follows the rule: earlier, to or from null, or later by more than the slack", () => {
    const at = T0
    expect(worthRecording(undefined, null)).toBe(true)
    expect(worthRecording(undefined, at)).toBe(true)
    expect(worthRecording(at, at - 1)).toBe(true)
    expect(worthRecording(at, at)).toBe(false)
    expect(worthRecording(at, at + RECORD_SLACK_MS)).toBe(false)
    expect(worthRecording(at, at + RECORD_SLACK_MS + 1)).toBe(true)
    expect(worthRecording(at, null)).toBe(true)
    expect(worthRecording(null, at)).toBe(true)
    expect(worthRecording(null, null)).toBe(false)
    // A healthy stream's entry trails by at most the slack, so the watchdog must wait longer.
    expect(STALE_AFTER_MS).toBeGreaterThan(RECORD_SLACK_MS)
  })

  it("fails neither the upsert nor the tick when D1 fails, and converges through the stream's own alarm once D1 answers", async () => {
    const stream = openStream("directory-down")
    // A daily cron at 07:00: T0 is 08:00, so the directory says tomorrow.
    value(await stream.upsert({ id: "daily", consumer: "test.scripted", cron: "0 7 * * *" }))
    expect(await recorded(stream.name)).toBe(T0 + 23 * HOUR)

    // D1 blips while an upsert moves the alarm 23 hours earlier.
    const outage = failingD1(env.DB, (query) => query.includes("schedule_streams"))
    await useDatabase(stream, outage.db)
    const reply = await stream.upsert({ id: "soon", consumer: "test.scripted", at: T0 + 5 * MINUTE })
    expect(reply).toMatchObject({ ok: true, value: { state: "scheduled", nextAt: T0 + 5 * MINUTE } })
    expect(await recorded(stream.name)).toBe(T0 + 23 * HOUR)
    expect(logs.of("schedule stream alarm not recorded in the directory")).toEqual([
      expect.objectContaining({
        level: "warn",
        stream: stream.name,
        next: T0 + 5 * MINUTE,
        retryAt: T0 + RECORD_RETRY_MS,
        error: expect.stringContaining("D1_ERROR"),
      }),
    ])
    // The stream's own alarm comes back for the entry, whatever else arms: the mark is durable.
    expect(await stream.alarm()).toBe(T0 + RECORD_RETRY_MS)
    await evictDurableObject(stream.stub)
    await useDatabase(stream, outage.db)
    // Within the wait, arms leave D1 alone: an outage cannot slow every tick by its bound.
    expect(await stream.tick(T0 + SECOND)).toMatchObject({ claimed: 0, alarm: T0 + 5 * MINUTE })
    expect(directoryWrites(outage.calls)).toHaveLength(1)
    expect(await stream.alarm()).toBe(T0 + RECORD_RETRY_MS)

    // D1 is back; the retry alarm fires (an idle tick) and writes the entry it owes.
    await useDatabase(stream, env.DB)
    expect(await stream.tick(T0 + RECORD_RETRY_MS)).toMatchObject({ claimed: 0, alarm: T0 + 5 * MINUTE })
    expect(await recorded(stream.name)).toBe(T0 + 5 * MINUTE)
    expect(await stream.alarm()).toBe(T0 + 5 * MINUTE)
    expect(
      await stream.inside((_, state) => state.storage.sql.exec("SELECT key FROM meta").toArray()),
    ).not.toContainEqual({
      key: RETRY_META_KEY,
    })

    // That alarm is then lost: the watchdog sees the entry go stale and nudges the stream.
    await stream.inside((_, state) => state.storage.deleteAlarm())
    const { asked } = await runWatchdog(T0 + 5 * MINUTE + STALE_AFTER_MS + MINUTE)
    expect(asked).toEqual([stream.name])
    expect(seen.map((s) => s.delivery.scheduleId)).toEqual(["soon"])
  })
})
