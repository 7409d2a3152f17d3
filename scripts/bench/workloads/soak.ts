import { runInDurableObject } from "cloudflare:test"
import { DEFAULT_RETENTION_MS } from "../../../src/infra/schedules/contract/limits.ts"
import { fill } from "../fill.ts"
import { figure, progress } from "../result.ts"
import { retire, streamStub } from "../systems.ts"
import type { BenchStream } from "../worker.ts"
import { round } from "./common.ts"

/** The ticks' time (BenchStream.tickAt) starts here: far ahead, so no real alarm of this stream ever fires. */
const T = Date.UTC(2100, 0, 1)
const HOUR = 3_600_000

interface Week {
  week: number
  delivered: number
  ticks: number
  msPerTick: number
  rowsReadPerTick: number
  rowsWrittenPerTick: number
  /** The most rows the stream held at any hour of the week. */
  maxRows: number
}

/**
 * soak (slotwise only): `total` one-shots delivered over `weeks` simulated weeks with the default
 * 7-day retention, a batch due every hour, ticked at those times (each hour's deliveries,
 * then a tick at the half hour for what the window lets go). The stream must hold at most a
 * window's worth of finished rows, and a tick in the last week must cost what it cost in the first.
 */
export async function soak(total: number, weeks: number) {
  const name = "soak"
  const hours = weeks * 7 * 24
  const perHour = Math.ceil(total / hours)
  const windowRows = (DEFAULT_RETENTION_MS / HOUR) * perHour
  progress(`soak slotwise: ${total} one-shots over ${weeks} weeks, ${perHour} an hour; ticking`)
  const rows = await runInDurableObject(streamStub(name), async (stream: BenchStream, state) => {
    await stream.list(name)
    const count = () => Number(state.storage.sql.exec("SELECT count(*) AS n FROM schedules").one().n)
    const result: Week[] = []
    let week: Week | undefined
    let elapsed = 0
    for (let hour = 0; hour < hours; hour++) {
      if (hour % (7 * 24) === 0) {
        week = {
          week: result.length + 1,
          delivered: 0,
          ticks: 0,
          msPerTick: 0,
          rowsReadPerTick: 0,
          rowsWrittenPerTick: 0,
          maxRows: 0,
        }
        result.push(week)
        elapsed = 0
      }
      const w = week as Week
      const due = T + hour * HOUR
      fill(state.storage.sql, name, perHour, perHour, due, `h${hour}-`)
      w.maxRows = Math.max(w.maxRows, count())
      stream.meter.start()
      const started = performance.now()
      for (const at of [due, due + HOUR / 2]) {
        for (let report = await stream.tickAt(at); ; report = await stream.tickAt(at)) {
          w.ticks++
          w.delivered += report.delivered
          if (report.claimed === 0 && report.swept === 0) break
        }
      }
      elapsed += performance.now() - started
      const { rowsRead, rowsWritten } = stream.meter.stop()
      w.rowsReadPerTick += rowsRead
      w.rowsWrittenPerTick += rowsWritten
      w.msPerTick = elapsed
    }
    await state.storage.deleteAlarm()
    return result.map((w) => ({
      ...w,
      msPerTick: round(w.msPerTick / w.ticks),
      rowsReadPerTick: round(w.rowsReadPerTick / w.ticks),
      rowsWrittenPerTick: round(w.rowsWrittenPerTick / w.ticks),
    }))
  })
  await retire(name, streamStub(name))
  for (const w of rows) progress(`soak slotwise: week ${w.week} ${JSON.stringify(w)}`)
  const first = rows[0] as Week
  // The window is full from the second week on: a steady state whose ticks also delete.
  const steady = rows[1] as Week
  const last = rows.at(-1) as Week
  const workload = `soak ${total.toLocaleString("en-US")} one-shots, ${weeks} weeks`
  const delivered = rows.reduce((n, w) => n + w.delivered, 0)
  figure(workload, "delivered", { slotwise: delivered })
  figure(workload, `most rows held (a 7-day window is ${windowRows.toLocaleString("en-US")})`, {
    slotwise: Math.max(...rows.map((w) => w.maxRows)),
  })
  figure(workload, "ms / tick, first week (nothing deleted yet)", { slotwise: first.msPerTick })
  figure(workload, "ms / tick, last week vs second (window full)", {
    slotwise: round(last.msPerTick / steady.msPerTick),
  })
  figure(workload, "rows read / tick, first week", { slotwise: first.rowsReadPerTick })
  figure(workload, "rows read / tick, last week vs second", {
    slotwise: round(last.rowsReadPerTick / steady.rowsReadPerTick),
  })
  figure(workload, "rows written / tick, first week", { slotwise: first.rowsWrittenPerTick })
  figure(workload, "rows written / tick, last week (deliveries and the window's deletes)", {
    slotwise: last.rowsWrittenPerTick,
  })
  if (delivered !== perHour * hours) throw new Error(`soak delivered ${delivered} of ${perHour * hours}`)
  if (last.maxRows > windowRows + perHour) throw new Error(`soak held ${last.maxRows} rows, over a 7-day window`)
}
