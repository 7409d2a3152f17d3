import { describe, expect, it } from "vitest"
import { derived } from "../../scripts/bench/derived.ts"
import type { Figure } from "../../scripts/bench/result.ts"

const LIMIT = "limit of 1 stream (4,000 due, best of 5)"
const fig = (workload: string, metric: string, slotwise: number): Figure => ({
  type: "figure",
  workload,
  metric,
  slotwise,
  agents: null,
})

describe("the bench's derived figures", () => {
  it("puts each burst against ticks back to back, with and without its pauses, and the tick's dispatch overhead", () => {
    const figures = [
      fig(LIMIT, "deliveries / s, ticks back to back", 25_000),
      fig(LIMIT, "µs / delivery: tick", 40),
      fig(LIMIT, "µs / delivery: SQL alone", 31.5),
      fig("burst 10,000", "deliveries / s (T0 to last delivery)", 20_000),
      fig("burst 10,000", "ms from T0 to last delivery", 500),
      fig("burst 10,000", "of which pauses of 10 ms or more between deliveries, ms", 100),
      fig("burst 10,000", "deliveries / s, best of 3 rounds", 24_000),
    ]
    expect(derived(figures).map((f) => [f.workload, f.metric, f.slotwise])).toEqual([
      [LIMIT, "µs / delivery: dispatch overhead (tick minus SQL alone)", 8.5],
      [LIMIT, "burst 10,000 as a share of ticks back to back", 0.8],
      // 10,000 in 400 ms of work is 25,000 a second: the limit itself.
      [LIMIT, "burst 10,000 as a share of ticks back to back, its pauses left out", 1],
    ])
  })

  it("derives nothing without a limit workload", () => {
    expect(derived([fig("burst 1,000", "deliveries / s (T0 to last delivery)", 9_000)])).toEqual([])
  })
})
