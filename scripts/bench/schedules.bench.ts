import { env, runInDurableObject } from "cloudflare:test"
import { expect, it } from "vitest"
import type { ScheduleStream, TickReport } from "../../src/infra/schedules/index.ts"
import { fill } from "./fill.ts"

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number)
const DELIVER = Number(process.env.BENCH_DELIVER ?? 2_000)
const T = Date.UTC(2100, 0, 1)

interface Row {
  schedules: number
  delivered: number
  deliveriesPerSecond: number
  rowsReadPerDelivery: number
  rowsWrittenPerDelivery: number
  msPerTick: number
  rowsReadPerTick: number
  idleTickRowsRead: number
  idleTickRowsWritten: number
}

it("measures a stream's tick at each size", async () => {
  const rows: Row[] = []
  for (const size of SIZES) {
    const due = Math.min(size, DELIVER)
    const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(`bench-${size}`))
    const row = await runInDurableObject(stub, async (stream: ScheduleStream, state) => {
      await stream.list(`bench-${size}`)
      fill(state.storage.sql, size, due, T)
      const reports: TickReport[] = []
      const started = performance.now()
      let delivered = 0
      while (delivered < due) {
        const report = await stream.tick(T)
        if (report.delivered === 0) throw new Error(`tick delivered nothing: ${JSON.stringify(report)}`)
        delivered += report.delivered
        reports.push(report)
      }
      const elapsed = performance.now() - started
      const idle = await stream.tick(T)
      const sum = (key: "rowsRead" | "rowsWritten") => reports.reduce((n, r) => n + r[key], 0)
      return {
        schedules: size,
        delivered,
        deliveriesPerSecond: Math.round((delivered / elapsed) * 1000),
        rowsReadPerDelivery: round(sum("rowsRead") / delivered),
        rowsWrittenPerDelivery: round(sum("rowsWritten") / delivered),
        msPerTick: round(elapsed / reports.length),
        rowsReadPerTick: round(sum("rowsRead") / reports.length),
        idleTickRowsRead: idle.rowsRead,
        idleTickRowsWritten: idle.rowsWritten,
      }
    })
    console.log(`[bench] ${size} schedules: ${JSON.stringify(row)}`)
    rows.push(row)
  }
  console.table(rows)
  const first = rows[0] as Row
  for (const row of rows) {
    console.log(
      `[bench] ${row.schedules} vs ${first.schedules}: tick cost x${round(row.msPerTick / first.msPerTick)}, rows read per tick x${round(row.rowsReadPerTick / first.rowsReadPerTick)}`,
    )
  }
  expect(rows.every((row) => row.delivered > 0)).toBe(true)
})

const round = (n: number) => Math.round(n * 100) / 100
