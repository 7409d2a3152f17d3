import { runInDurableObject } from "cloudflare:test"
import * as core from "../../../src/infra/schedules/stream/core.ts"
import { type Claimed, claimDue } from "../../../src/infra/schedules/stream/delivery-claim.ts"
import { ScheduleStore } from "../../../src/infra/schedules/stream/store.ts"
import { fill } from "../fill.ts"
import { figure, progress } from "../result.ts"
import { retire, streamStub } from "../systems.ts"
import type { BenchStream } from "../worker.ts"
import { round } from "./common.ts"

/** The time the ticks run at (BenchStream.tickAt): far ahead, so no real alarm of these streams ever fires. */
const T = Date.UTC(2100, 0, 1)
const BATCH = 32

/**
 * The limit of one stream (slotwise only): `count` due one-shots delivered by ticks back to back
 * at T, against the same rows claimed and settled by the tick's SQL alone
 * (claim, then settle all 32 as delivered, no dispatch): how much of a delivery is storage work,
 * and what one Durable Object can do at most. Best of `rounds`, to see past a busy machine.
 */
export async function limit(count: number, rounds: number) {
  const best = { tick: Number.POSITIVE_INFINITY, sql: Number.POSITIVE_INFINITY }
  const written = { oneShot: 0, recurring: 0 }
  const ticks: number[] = []
  for (let round = 0; round < rounds; round++) {
    const name = `limit-${round}`
    progress(`limit slotwise: round ${round + 1} of ${rounds}, ${count} due`)
    const measured = await runInDurableObject(streamStub(name), async (stream: BenchStream, state) => {
      await stream.list(name)
      fill(state.storage.sql, name, count, count, T, "t")
      stream.meter.start()
      let started = performance.now()
      for (let delivered = 0; delivered < count; ) delivered += (await stream.tickAt(T)).delivered
      const tick = (performance.now() - started) / count
      const oneShot = stream.meter.read().rowsWritten / count
      // Recurring schedules, each delivered once: the row moves on to its next occurrence.
      fill(state.storage.sql, name, BATCH * 4, BATCH * 4, T, "r", 3_600_000)
      stream.meter.start()
      for (let delivered = 0; delivered < BATCH * 4; ) delivered += (await stream.tickAt(T)).delivered
      const recurring = stream.meter.read().rowsWritten / (BATCH * 4)
      // The same work on fresh rows, storage only: the claim and the settlement the tick runs.
      fill(state.storage.sql, name, count, count, T, "q")
      const store = new ScheduleStore(state.storage)
      const lease = () => 60_000
      started = performance.now()
      for (let claims: Claimed[] = claimDue(store, T, BATCH, lease); claims.length > 0; ) {
        store.transaction(() => {
          const rows = store.getMany(claims.map(({ claim }) => claim.id))
          const changes = claims.flatMap(({ claim }) => {
            const before = rows.get(claim.id)
            const settled = core.settle(before, claim, { status: "delivered", lateByMs: 0 }, T)
            return core.changed(settled) && before ? [{ before, change: settled, now: T }] : []
          })
          store.applyAll(changes)
        })
        claims = claimDue(store, T, BATCH, lease)
      }
      const sql = (performance.now() - started) / count
      await state.storage.deleteAlarm()
      return { tick, sql, oneShot, recurring }
    })
    await retire(name, streamStub(name))
    ticks.push(measured.tick)
    best.tick = Math.min(best.tick, measured.tick)
    best.sql = Math.min(best.sql, measured.sql)
    written.oneShot = Math.max(written.oneShot, measured.oneShot)
    written.recurring = Math.max(written.recurring, measured.recurring)
  }
  progress(`limit slotwise: ${JSON.stringify(best)} ms per delivery`)
  const workload = `limit of 1 stream (${count.toLocaleString("en-US")} due, best of ${rounds})`
  figure(workload, "deliveries / s, ticks back to back", { slotwise: Math.round(1000 / best.tick) })
  const median = [...ticks].sort((a, b) => a - b)[Math.floor((ticks.length - 1) / 2)] as number
  figure(workload, `deliveries / s, ticks back to back, median of ${rounds}`, { slotwise: Math.round(1000 / median) })
  figure(workload, "deliveries / s, the tick's SQL alone (no dispatch)", { slotwise: Math.round(1000 / best.sql) })
  figure(workload, "µs / delivery: tick", { slotwise: round(best.tick * 1000, 1) })
  figure(workload, "µs / delivery: SQL alone", { slotwise: round(best.sql * 1000, 1) })
  figure(workload, "rows written / one-shot delivery", { slotwise: round(written.oneShot, 3) })
  figure(workload, "rows written / recurring delivery", { slotwise: round(written.recurring, 3) })
}
