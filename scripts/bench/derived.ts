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
    if (perSecond && burst.slotwise !== null)
      add(`${burst.workload} as a share of ticks back to back`, burst.slotwise / perSecond)
  }
  return out
}
