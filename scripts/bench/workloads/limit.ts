import { runInDurableObject } from "cloudflare:test"
import * as core from "../../../src/infra/schedules/stream/core/index.ts"
import { type Claimed, claimDue } from "../../../src/infra/schedules/stream/delivery-claim.ts"
import { tallyOf } from "../../../src/infra/schedules/stream/rollup.ts"
import { ScheduleStore } from "../../../src/infra/schedules/stream/store.ts"
import { fill } from "../fill.ts"
import { figure, note, progress } from "../result.ts"
import { retire, streamStub } from "../systems.ts"
import type { BenchStream } from "../worker.ts"
import { round } from "./common.ts"

/** The time the ticks run at (BenchStream.tickAt): far ahead, so no real alarm of these streams ever fires. */
const T = Date.UTC(2100, 0, 1)
const BATCH = 32

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number

/**
 * The tick's statements alone, on `store`: the select and claim of a batch (claimDue), the fence read and the
 * settlement of every row as delivered (one UPDATE for the batch and the retention journal's row), the batch's
 * row in the stream's history, and the re-arm's read of the next eligible time. No dispatch, no consumer,
 * no promise, no log line: what a tick would cost if it did nothing but its SQL.
 */
function sqlAlone(store: ScheduleStore): void {
  const lease = () => 60_000
  for (let claims: Claimed[] = claimDue(store, T, BATCH, lease); claims.length > 0; ) {
    const answers = claims.map(({ claim }) => ({
      claim,
      result: { status: "delivered", lateByMs: 0 } as const,
      now: T,
    }))
    store.transaction(() => {
      const rows = store.getMany(claims.map(({ claim }) => claim.id))
      const settled = answers.map(({ claim, result }) => core.settle(rows.get(claim.id), claim, result, T))
      store.applyAll(
        settled.flatMap((change, i) => {
          const before = rows.get((claims[i] as Claimed).claim.id)
          return core.changed(change) && before ? [{ before, change, now: T }] : []
        }),
      )
      store.rollup.add(tallyOf(answers, settled))
    })
    store.nextEligibleAt()
    claims = claimDue(store, T, BATCH, lease)
  }
}

/** One round's times, ms per delivery. */
interface Round {
  tick: number
  alarm: number
  sql: number
}

/**
 * The limit of one stream (slotwise only): `count` due one-shots delivered back to back at T, two ways: by
 * `tick()` called once per batch (each call re-arms and writes its line), and by one run of the alarm handler
 * (its batches back to back, as Cloudflare runs a backlog: it arms twice and writes one line). Against them, the
 * same statements run alone on as many fresh rows (sqlAlone). `rounds` rounds after one round to warm the
 * JIT, which is not counted (its ratio is noted); the three in turn, which goes first moving on each round. The
 * ratios are taken within each round (the same load on the machine for all three) and their medians are the
 * figures; the best round of each is beside them.
 */
export async function limit(count: number, rounds: number) {
  const workload = `limit of 1 stream (${count.toLocaleString("en-US")} due, best of ${rounds})`
  const measured: Round[] = []
  const written = { oneShot: 0, recurring: 0 }
  for (let round = 0; round <= rounds; round++) {
    progress(`limit slotwise: round ${round} of ${rounds} (0 warms up), ${count} due`)
    const times: Partial<Round> = {}
    const steps: Array<() => Promise<void>> = [
      async () => {
        const ticks = await timeTicks(`limit-${round}`, count, "tick")
        times.tick = ticks.ms
        written.oneShot = Math.max(written.oneShot, ticks.oneShot)
        written.recurring = Math.max(written.recurring, ticks.recurring)
      },
      async () => {
        times.alarm = (await timeTicks(`limit-alarm-${round}`, count, "alarm")).ms
      },
      async () => {
        times.sql = await timeSql(`limit-sql-${round}`, count)
      },
    ]
    for (let i = 0; i < steps.length; i++) await (steps[(round + i) % steps.length] as () => Promise<void>)()
    if (round === 0) note(workload, `warm-up round, not counted: ${JSON.stringify(ratiosOf(times as Round))}`)
    else measured.push(times as Round)
  }
  const ratios = measured.map(ratiosOf)
  const best = (key: keyof Round) => Math.min(...measured.map((r) => r[key]))
  const middle = (key: keyof Round) => median(measured.map((r) => r[key]))
  progress(`limit slotwise: tick / SQL ${ratios.map((r) => r.tick)}; alarm / SQL ${ratios.map((r) => r.alarm)}`)
  figure(workload, "deliveries / s, ticks back to back", { slotwise: Math.round(1000 / best("tick")) })
  figure(workload, `deliveries / s, ticks back to back, median of ${rounds}`, {
    slotwise: Math.round(1000 / middle("tick")),
  })
  figure(workload, "deliveries / s, one alarm's batches back to back", { slotwise: Math.round(1000 / best("alarm")) })
  figure(workload, "deliveries / s, the tick's SQL alone (no dispatch)", { slotwise: Math.round(1000 / best("sql")) })
  figure(workload, "µs / delivery: tick", { slotwise: round(best("tick") * 1000, 1) })
  figure(workload, "µs / delivery: alarm", { slotwise: round(best("alarm") * 1000, 1) })
  figure(workload, "µs / delivery: SQL alone", { slotwise: round(best("sql") * 1000, 1) })
  figure(workload, `tick / SQL alone, median of ${rounds} rounds`, {
    slotwise: round(median(ratios.map((r) => r.tick)), 2),
  })
  figure(workload, `alarm / SQL alone, median of ${rounds} rounds`, {
    slotwise: round(median(ratios.map((r) => r.alarm)), 2),
  })
  figure(workload, "rows written / one-shot delivery", { slotwise: round(written.oneShot, 3) })
  figure(workload, "rows written / recurring delivery", { slotwise: round(written.recurring, 3) })
  note(workload, `tick / SQL alone in each round: ${ratios.map((r) => r.tick).join(", ")}`)
  note(workload, `alarm / SQL alone in each round: ${ratios.map((r) => r.alarm).join(", ")}`)
}

const ratiosOf = ({ tick, alarm, sql }: Round) => ({ tick: round(tick / sql, 2), alarm: round(alarm / sql, 2) })

/**
 * ms per delivery of `count` due one-shots delivered back to back (by tick() per batch, or by one alarm), and the
 * rows they and recurring deliveries write.
 */
async function timeTicks(name: string, count: number, by: "tick" | "alarm") {
  const measured = await runInDurableObject(streamStub(name), async (stream: BenchStream, state) => {
    await stream.list(name)
    fill(state.storage.sql, name, count, count, T, "t")
    stream.meter.start()
    const started = performance.now()
    // The alarm goes on while batches are full: its injected clock never reaches ALARM_WORK_MS.
    if (by === "alarm") await stream.alarmAt(T)
    else for (let delivered = 0; delivered < count; ) delivered += (await stream.tickAt(T)).delivered
    const ms = (performance.now() - started) / count
    const oneShot = stream.meter.read().rowsWritten / count
    // Recurring schedules, each delivered once: the row moves on to its next occurrence.
    fill(state.storage.sql, name, BATCH * 4, BATCH * 4, T, "r", 3_600_000)
    stream.meter.start()
    for (let delivered = 0; delivered < BATCH * 4; ) delivered += (await stream.tickAt(T)).delivered
    const recurring = stream.meter.read().rowsWritten / (BATCH * 4)
    const done = state.storage.sql.exec("SELECT count(*) AS n FROM schedules WHERE state = 'completed'").one().n
    if (done !== count) throw new Error(`limit (${by}): ${done} one-shots completed of ${count}`)
    await state.storage.deleteAlarm()
    return { ms, oneShot, recurring }
  })
  await retire(name, streamStub(name))
  return measured
}

/** ms per delivery of the same statements alone (sqlAlone) on `count` fresh due one-shots, in an object of its own. */
async function timeSql(name: string, count: number): Promise<number> {
  const ms = await runInDurableObject(streamStub(name), async (stream: BenchStream, state) => {
    await stream.list(name)
    fill(state.storage.sql, name, count, count, T, "q")
    const store = new ScheduleStore(state.storage)
    const started = performance.now()
    sqlAlone(store)
    const elapsed = (performance.now() - started) / count
    await state.storage.deleteAlarm()
    return elapsed
  })
  await retire(name, streamStub(name))
  return ms
}
