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

/** A figure for every budget, each at the budget's ceiling, with the Agent at 2 where the budget reads it. */
const withinAll = (): Figure[] =>
  BUDGETS.map((budget) =>
    row(
      budget.workload.source.replace(/[\^$]/g, ""),
      budget.metric.source.replace(/[\^$\\]/g, ""),
      budget.max,
      budget.agents ? 2 : null,
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
    expect(overBudget(missing)).toEqual([expect.stringMatching(/no Agent figure beside it/)])
  })
})
