import { run } from "../record.ts"
import { figures, note, progress, type SystemName } from "../result.ts"
import { target } from "../systems.ts"
import { quantile, settled, sleep } from "./common.ts"

interface Steady {
  setupMs: number
  deliveries: number
  perSecond: number
  /** The mean, over schedules, of the time between one schedule's first and last delivery divided by its gaps. */
  periodMs: number
  p50: number
  p99: number
  max: number
  exactP50: number
  exactP99: number
  exactMax: number
  /** Rows written over the window per delivery started in it: recurring deliveries, as batches fill by themselves. */
  rowsWritten: number
}

/**
 * steady: `count` schedules repeating every second for `seconds` seconds. Lateness = the
 * consumer's Date.now() at its start minus the occurrence's due time, over the occurrences due
 * and started in the window (from the end of the setup). Then every schedule is cancelled and
 * the alarm deleted, so none runs during a later workload.
 */
export async function steady(count: number, seconds: number, order: readonly SystemName[]) {
  const workload = `steady ${count.toLocaleString("en-US")} x 1 s`
  const results: Partial<Record<SystemName, Steady>> = {}
  for (const system of order) {
    const t = target(system, `steady-${count}-${system}`)
    progress(`${workload} ${system}: creating ${count} schedules every 1 s`)
    const started = Date.now()
    const ids = await t.everySecond(count, "noop")
    const windowStart = Date.now()
    await t.meterStart()
    progress(`${workload} ${system}: created in ${windowStart - started} ms; running ${seconds} s`)
    await sleep(seconds * 1000)
    const windowEnd = Date.now()
    const metered = await t.meterRead()
    await t.cancel(ids)
    await t.quiet()
    await settled(t)
    // Occurrences due during the setup waited for it: not the steady state.
    const seen = run(t.name).seen.filter(
      (s) => s.exactDueAt >= windowStart && s.startedAt >= windowStart && s.startedAt < windowEnd,
    )
    const starts = new Map<number, number[]>()
    for (const s of seen) starts.set(s.i, [...(starts.get(s.i) ?? []), s.startedAt])
    const periods = [...starts.values()]
      .filter((times) => times.length > 1)
      .map((times) => (Math.max(...times) - Math.min(...times)) / (times.length - 1))
    const inWindow = run(t.name).seen.filter((s) => s.startedAt >= windowStart && s.startedAt < windowEnd).length
    const late = seen.map((s) => s.startedAt - s.dueAt)
    const exact = seen.map((s) => s.startedAt - s.exactDueAt)
    results[system] = {
      setupMs: windowStart - started,
      deliveries: seen.length,
      perSecond: Math.round(seen.length / ((windowEnd - windowStart) / 1000)),
      periodMs: Math.round(periods.reduce((a, b) => a + b, 0) / periods.length),
      p50: quantile(late, 0.5),
      p99: quantile(late, 0.99),
      max: quantile(late, 1),
      exactP50: quantile(exact, 0.5),
      exactP99: quantile(exact, 0.99),
      exactMax: quantile(exact, 1),
      rowsWritten: Math.round((metered.rowsWritten / inWindow) * 1000) / 1000,
    }
    progress(`${workload} ${system}: ${JSON.stringify(results[system])}`)
    await t.done()
  }
  figures(workload, results, [
    [`deliveries / s (ideal ${count.toLocaleString("en-US")})`, (r) => r.perSecond],
    ["mean ms between one schedule's deliveries (ideal 1,000)", (r) => r.periodMs],
    ["lateness p50 ms", (r) => r.p50],
    ["lateness p99 ms", (r) => r.p99],
    ["lateness max ms", (r) => r.max],
    ["lateness p50 ms vs exact due ms", (r) => r.exactP50],
    ["lateness p99 ms vs exact due ms", (r) => r.exactP99],
    ["lateness max ms vs exact due ms", (r) => r.exactMax],
    ["setup ms", (r) => r.setupMs],
    ["rows written / delivery", (r) => r.rowsWritten],
  ])
  note(
    workload,
    "lateness = Date.now() at the consumer's start minus the due time it is handed, over occurrences due and " +
      "started in the window (after the setup): slotwise delivery.dueAt (ms); " +
      "agents schedule.time x 1000 (the SDK hands whole seconds, floored). 'vs exact due ms' uses the job's own due " +
      "time in ms for the agent (read from its job queue as the job starts), and is the same figure for slotwise. " +
      "slotwise keeps a fixed cadence (due + k x 1 s); the agent reschedules each run 1 s after it ran.",
  )
}
