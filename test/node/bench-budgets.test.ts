import { describe, expect, it } from "vitest"
import { BUDGETS, overBudget } from "../../scripts/bench/budgets.ts"
import type { Figure } from "../../scripts/bench/result.ts"

const row = (workload: string, metric: string, slotwise: number, agents: number | null = null): Figure => ({
  type: "figure",
  workload,
  metric,
  slotwise,
  agents,
})

/** A figure for every budget, each at the budget's ceiling, with the Agent at 2 (or the ceiling) where the budget reads it. */
const withinAll = (): Figure[] =>
  BUDGETS.map((budget) =>
    row(
      budget.workload.source.replace(/[\^$]/g, ""),
      budget.metric.source.replace(/[\^$\\]/g, ""),
      budget.max,
      budget.agents ? Math.max(2, budget.max) : null,
    ),
  )

describe("the bench's budgets", () => {
  it("pass figures at their ceilings", () => {
    expect(overBudget(withinAll())).toEqual([])
  })

  it("hold rows written per delivery to the Agent's figure beside it, when that is below the ceiling", () => {
    const figures = withinAll().map((figure) =>
      figure.workload === "cost" && figure.metric === "rows written / delivery" ? { ...figure, agents: 1 } : figure,
    )
    const ceiling = BUDGETS.find((budget) => budget.agents)?.max
    expect(overBudget(figures)).toEqual([
      expect.stringContaining(`cost / rows written / delivery: ${ceiling}, over the Agent's 1 (`),
    ])
  })

  it("fail a figure over its ceiling, and a budget whose Agent figure is missing", () => {
    const figures = withinAll().map((figure) =>
      figure.metric === "rows written / schedule created" ? { ...figure, slotwise: 3 } : figure,
    )
    expect(overBudget(figures)).toEqual([expect.stringMatching(/rows written \/ schedule created: 3, over budget 2/)])
    const missing = withinAll().map((figure) => (figure.agents === null ? figure : { ...figure, agents: null }))
    expect(overBudget(missing)).toEqual(
      BUDGETS.filter((budget) => budget.agents).map(() => expect.stringMatching(/no Agent figure beside it/)),
    )
  })

  it("hold stored bytes to 1.1 times the Agent's, and startup to 1.5 times its", () => {
    const bytes = (slotwise: number) =>
      withinAll().map((figure) =>
        figure.metric === "stored bytes / 1,000 schedules" ? { ...figure, slotwise, agents: 240_000 } : figure,
      )
    expect(overBudget(bytes(264_000))).toEqual([])
    expect(overBudget(bytes(264_001))).toEqual([
      expect.stringContaining("stored bytes / 1,000 schedules: 264001, over 1.1 x the Agent's 240000"),
    ])
    const startup = withinAll().map((figure) =>
      figure.metric === "active CPU ms, median" ? { ...figure, slotwise: 31, agents: 20 } : figure,
    )
    expect(overBudget(startup)).toEqual([
      expect.stringContaining("active CPU ms, median: 31, over 1.5 x the Agent's 20"),
    ])
  })
})
