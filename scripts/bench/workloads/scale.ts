import { runInDurableObject } from "cloudflare:test"
import type { TickReport } from "../../../src/infra/schedules/stream/event-map.ts"
import { fill } from "../fill.ts"
import { figure, progress } from "../result.ts"
import { retire, streamStub } from "../systems.ts"
import type { BenchStream } from "../worker.ts"
import { round } from "./common.ts"

/** The time these ticks run at (BenchStream.tickAt): far ahead, so no real alarm of these streams ever fires. */
const T = Date.UTC(2100, 0, 1)

interface Scale {
  schedules: number
  delivered: number
  ticks: number
  msPerTick: number
  rowsReadPerTick: number
  rowsWrittenPerDelivery: number
  deliveriesPerSecond: number
  idleTickRowsRead: number
  idleTickRowsWritten: number
}

/**
 * scale (slotwise only): one stream filled with `size` one-shot rows straight in SQLite,
 * `deliver` of them due at T; stream.tickAt(T) until they are delivered.
 * Tick cost and rows per tick at each size, and their ratio to the first size.
 */
export async function scale(sizes: readonly number[], deliver: number) {
  const rows: Scale[] = []
  for (const size of sizes) {
    const name = `scale-${size}`
    const due = Math.min(size, deliver)
    progress(`scale ${size} slotwise: filling ${size} rows, ${due} due; ticking`)
    const row = await runInDurableObject(streamStub(name), async (stream: BenchStream, state): Promise<Scale> => {
      await stream.list(name)
      fill(state.storage.sql, name, size, due, T)
      const reports: TickReport[] = []
      stream.meter.start()
      const started = performance.now()
      let delivered = 0
      while (delivered < due) {
        const report = await stream.tickAt(T)
        if (report.delivered === 0) throw new Error(`tick delivered nothing: ${JSON.stringify(report)}`)
        delivered += report.delivered
        reports.push(report)
      }
      const elapsed = performance.now() - started
      const busy = stream.meter.read()
      stream.meter.start()
      await stream.tickAt(T)
      const idle = stream.meter.stop()
      await state.storage.deleteAlarm()
      return {
        schedules: size,
        delivered,
        ticks: reports.length,
        msPerTick: round(elapsed / reports.length),
        rowsReadPerTick: round(busy.rowsRead / reports.length),
        rowsWrittenPerDelivery: round(busy.rowsWritten / delivered),
        deliveriesPerSecond: Math.round((delivered / elapsed) * 1000),
        idleTickRowsRead: idle.rowsRead,
        idleTickRowsWritten: idle.rowsWritten,
      }
    })
    await retire(name, streamStub(name))
    progress(`scale ${size} slotwise: ${JSON.stringify(row)}`)
    rows.push(row)
  }
  const first = rows[0] as Scale
  for (const row of rows) {
    const workload = `scale ${row.schedules.toLocaleString("en-US")} in 1 stream`
    figure(workload, `ms / tick (${deliver} due, 32 per tick, injected clock)`, { slotwise: row.msPerTick })
    figure(workload, "rows read / tick", { slotwise: row.rowsReadPerTick })
    figure(workload, "rows written / delivery", { slotwise: row.rowsWrittenPerDelivery })
    figure(workload, "deliveries / s (ticks back to back)", { slotwise: row.deliveriesPerSecond })
    figure(workload, "idle tick rows read", { slotwise: row.idleTickRowsRead })
    figure(workload, "idle tick rows written", { slotwise: row.idleTickRowsWritten })
    figure(workload, `ms / tick vs ${first.schedules.toLocaleString("en-US")}`, {
      slotwise: round(row.msPerTick / first.msPerTick),
    })
    figure(workload, `rows read / tick vs ${first.schedules.toLocaleString("en-US")}`, {
      slotwise: round(row.rowsReadPerTick / first.rowsReadPerTick),
    })
  }
}
