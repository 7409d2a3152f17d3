import type { Figure } from "./result.ts"

/**
 * Figures computed from others of the same run (issue 22's budgets): each real-time burst as a share
 * of one stream's limit (ticks back to back), and the tick's dispatch overhead (tick minus its SQL
 * alone). Nothing when the figures they come from are missing.
 */
export function derived(figures: readonly Figure[]): Figure[] {
  const find = (workload: RegExp, metric: string) =>
    figures.find((f) => workload.test(f.workload) && f.metric === metric)?.slotwise ?? null
  const limit = figures.find((f) => /^limit/.test(f.workload))?.workload
  if (!limit) return []
  const out: Figure[] = []
  const add = (metric: string, value: number) =>
    out.push({ type: "figure", workload: limit, metric, slotwise: Math.round(value * 100) / 100, agents: null })
  const tick = find(/^limit/, "µs / delivery: tick")
  const sql = find(/^limit/, "µs / delivery: SQL alone")
  if (tick !== null && sql !== null) add("µs / delivery: dispatch overhead (tick minus SQL alone)", tick - sql)
  const perSecond = find(/^limit/, "deliveries / s, ticks back to back")
  for (const burst of figures.filter(
    (f) => /^burst/.test(f.workload) && f.metric === "deliveries / s (T0 to last delivery)",
  )) {
    if (!perSecond || burst.slotwise === null) continue
    add(`${burst.workload} as a share of ticks back to back`, burst.slotwise / perSecond)
    // The same burst with its pauses (full collections, storage flushes) left out of its span.
    const ofBurst = (metric: string) =>
      figures.find((f) => f.workload === burst.workload && f.metric === metric)?.slotwise ?? null
    const span = ofBurst("ms from T0 to last delivery")
    const paused = ofBurst("of which pauses of 10 ms or more between deliveries, ms")
    // The workload is named after its size: "burst 10,000".
    const n = Number(burst.workload.replace(/\D/g, ""))
    if (span !== null && paused !== null && span > paused)
      add(
        `${burst.workload} as a share of ticks back to back, its pauses left out`,
        n / ((span - paused) / 1000) / perSecond,
      )
  }
  return out
}
