import type { Figure } from "./result.ts"

/**
 * The counts slotwise is held to: a figure over its budget fails `npm run bench`, CI's smoke run
 * included. Counts only, never times (those are read across three full runs, in docs/benchmarks.md).
 * `max` is a fixed ceiling; with `agents`, slotwise is also held to the Agent's figure measured beside it.
 */
export interface Budget {
  workload: RegExp
  metric: RegExp
  max: number
  /** Also at most the Agents SDK's figure of the same row (times `ofAgents`, 1 unless given). */
  agents?: true
  ofAgents?: number
  why: string
}

/** A row written once per batch of BATCH_SIZE (32): a claim record, a journal entry, the history's minute row. */
const PER_BATCH = 1 / 32

export const BUDGETS: readonly Budget[] = [
  {
    workload: /^cost$/,
    metric: /^rows written \/ delivery$/,
    max: 1.15,
    agents: true,
    why:
      "a one-shot: its row (1); per batch of 32 a claim record, a retention-journal row and the history's minute " +
      "row (3/32; 4 batches for the smoke run's 100); a few per run, not per delivery (the event numbers reserved " +
      "in the stream's meta). The Agent writes 2 (its running flag, then the delete)",
  },
  {
    workload: /^cost$/,
    metric: /^rows written \/ lone delivery/,
    max: 4.2,
    why:
      "a one-shot alone in its alarm: its claim record, its row, its retention-journal row (the floor with a claim " +
      "before dispatch and retention without a scan) and the history's minute row, and its hour row when an hour " +
      "turns during the run; the Agent writes 2, its running flag and the delete",
  },
  {
    workload: /^limit/,
    metric: /^rows written \/ one-shot delivery$/,
    max: 1 + 3 * PER_BATCH + 0.005,
    why: "a one-shot's row, and per batch of 32 its claim record, its retention-journal row and the history's row",
  },
  {
    workload: /^limit/,
    metric: /^rows written \/ recurring delivery$/,
    max: 2 + 2 * PER_BATCH + 0.005,
    why:
      "the floor (docs/benchmarks.md, 'Every row a delivery writes'): the row and its due-index entry, which the next " +
      "occurrence's time must move (2), and the batch's claim record, which must exist before any consumer is called " +
      "(1/32); and the history's row a settled batch (1/32). The Agent's 2 has no claim and no due index (it reads " +
      "every job it holds on every alarm)",
  },
  {
    workload: /^cost$/,
    metric: /^rows read \/ delivery$/,
    max: 6.5,
    why:
      "select 1, fence 2 (a bound IN list is read as well as the row), settle 2 (a VALUES list likewise), and the " +
      "batch's claim record and journal row: the price of claiming and settling 32 in a statement, not one each",
  },
  { workload: /^cost$/, metric: /^idle alarm rows written/, max: 0, why: "an idle alarm writes nothing" },
  { workload: /^cost$/, metric: /^idle alarm rows read/, max: 3, why: "an idle alarm reads the next due row" },
  { workload: /^scale/, metric: /^idle tick rows written$/, max: 0, why: "an idle tick writes nothing" },
  {
    workload: /^jobs 100 exclusive$/,
    metric: /^D1 queries \/ heartbeat$/,
    max: 3,
    why: "the claim of every due job in one statement, and their releases in one D1 batch (they all end at once)",
  },
  {
    workload: /^jobs 100 exclusive$/,
    metric: /^rows written \/ run$/,
    max: 2,
    why: "the lease row, by the claim and by the release (which records the run and folds it into its hour)",
  },
  {
    workload: /^jobs 100 exclusive$/,
    metric: /^rows written \/ run, a job's first$/,
    max: 4,
    why: "the lease row inserted (and its primary-key index entry), then released",
  },
  {
    workload: /^jobs 100 exclusive$/,
    metric: /^rows read \/ run$/,
    max: 6,
    why: "the claim: its JSON entry, the row and its index, the row returned (4); the release by primary key (1)",
  },
  {
    workload: /^cost$/,
    metric: /^stored bytes \/ 1,000 schedules$/,
    max: 300_000,
    agents: true,
    ofAgents: 1.1,
    why:
      "a pending one-shot: its row (a schedule/set event in short, schema version 8) and its due-index entry, at " +
      "most 1.1 times the Agent's row (SQLite's pages, so within a page of 4,096 bytes a 1,000)",
  },
  {
    workload: /^limit/,
    metric: /^tick \/ SQL alone, median/,
    max: 4,
    why:
      "a tick against its statements alone, within one round: 1.2 to 1.5 in full runs (docs/benchmarks.md); a time, " +
      "so the ceiling is far above it (one round of 320 on a loaded machine has read 2.9): it catches a tick " +
      "that does per-delivery work its SQL does not, not a few microseconds",
  },
  {
    workload: /^startup/,
    metric: /^active CPU ms, median/,
    max: 1_000,
    agents: true,
    ofAgents: 1.5,
    why:
      "the example Worker's start-up against an Agents SDK scheduler Worker's, profiled one after the other: about " +
      "a fifth of it on a quiet machine, 0.9 of it on one with a load of 10; a time, so 1.5 times it",
  },
  {
    workload: /^startup/,
    metric: /^bundle KiB gzip/,
    max: 125,
    agents: true,
    why:
      "the whole upload of the example Worker (its hot module is held to 100 KiB by npm run check), at most the " +
      "Agents SDK Worker's (285 KiB)",
  },
  {
    workload: /^cost$/,
    metric: /^rows written \/ schedule created$/,
    max: 2,
    why: "the row (its schedule/set event rides on it) and its due-index entry",
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
      if (figure.slotwise === null) continue
      const agents = budget.agents ? figure.agents : null
      if (budget.agents && agents === null)
        over.push(`${figure.workload} / ${figure.metric}: no Agent figure beside it to hold slotwise to`)
      const scaled = agents === null ? null : agents * (budget.ofAgents ?? 1)
      const max = scaled === null ? budget.max : Math.min(budget.max, scaled)
      if (figure.slotwise > max) {
        const times = budget.ofAgents === undefined ? "" : `${budget.ofAgents} x `
        const against =
          scaled !== null && scaled < budget.max ? `${times}the Agent's ${agents}` : `budget ${budget.max}`
        over.push(`${figure.workload} / ${figure.metric}: ${figure.slotwise}, over ${against} (${budget.why})`)
      }
    }
  }
  return over
}
