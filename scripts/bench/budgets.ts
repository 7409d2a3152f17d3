import type { Figure } from "./result.ts"

/**
 * The counts slotwise is held to: a figure over its budget fails `npm run bench`, CI's smoke run
 * included. Counts only, never times (those are read across three full runs, in docs/benchmarks.md).
 */
export interface Budget {
  workload: RegExp
  metric: RegExp
  max: number
  why: string
}

export const BUDGETS: readonly Budget[] = [
  {
    workload: /^cost$/,
    metric: /^rows written \/ delivery$/,
    max: 5.09,
    why:
      "a one-shot: claim 2 (the row and its due-index entry), settle 2 (the row and its finish-index entry), " +
      "event 1; the history's one row a settled batch (1/32 a delivery in full batches); and a few per run, not " +
      "per delivery (the alarm the directory holds, kept in the stream's meta)",
  },
  {
    workload: /^limit/,
    metric: /^rows written \/ (one-shot|recurring) delivery$/,
    max: 5.04,
    why:
      "a recurring delivery moves its due-index entry at claim and settlement, and writes its event; " +
      "the history adds one row a batch of 32 (0.031)",
  },
  {
    workload: /^cost$/,
    metric: /^rows read \/ delivery$/,
    max: 9.5,
    why:
      "select 1, claim 2 and fence 2 (a bound IN or VALUES list is read as well as the row), settle 3, event 1: " +
      "the price of claiming and settling 32 in a statement, not one each (6 when every row had its own)",
  },
  { workload: /^cost$/, metric: /^idle alarm rows written/, max: 0, why: "an idle alarm writes nothing" },
  { workload: /^cost$/, metric: /^idle alarm rows read/, max: 3, why: "an idle alarm reads the next due row" },
  { workload: /^scale/, metric: /^idle tick rows written$/, max: 0, why: "an idle tick writes nothing" },
  {
    workload: /^cost$/,
    metric: /^rows written \/ schedule created$/,
    max: 3,
    why: "the row, its due-index entry, its event",
  },
]

/** Each budget's figures that are over it (slotwise's column), as lines to print. */
export function overBudget(figures: readonly Figure[]): string[] {
  const over: string[] = []
  for (const budget of BUDGETS) {
    const matching = figures.filter((f) => budget.workload.test(f.workload) && budget.metric.test(f.metric))
    if (matching.length === 0)
      over.push(`no figure for the budget "${budget.metric.source}" in "${budget.workload.source}"`)
    for (const figure of matching) {
      if (figure.slotwise !== null && figure.slotwise > budget.max) {
        over.push(`${figure.workload} / ${figure.metric}: ${figure.slotwise}, budget ${budget.max} (${budget.why})`)
      }
    }
  }
  return over
}
