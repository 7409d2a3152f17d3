import { failureReport } from "./report.ts"
import { shrink } from "./shrink.ts"
import { type Outcome, simulate } from "./simulate.ts"
import { generate } from "./steps.ts"

export interface Exploration {
  outcome: Outcome
  /** Set when a rule broke: the seed, the replay command and the shrunk steps. */
  report?: string
}

/** Runs one seed; on a broken rule, shrinks it and writes the report. */
export async function explore(seed: number, count: number): Promise<Exploration> {
  const steps = generate(seed, count)
  const outcome = await simulate(steps, String(seed))
  if (!outcome.failure) return { outcome }
  const shrunk = await shrink(steps, outcome, (candidate) => simulate(candidate, `${seed}-shrink`))
  const trace: string[] = []
  await simulate(shrunk.steps, `${seed}-trace`, { trace: (line) => trace.push(line) })
  const report = failureReport(seed, count, outcome, shrunk, trace)
  return { outcome, report }
}
