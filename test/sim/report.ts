import type { Shrunk } from "./shrink.ts"
import type { Outcome } from "./simulate.ts"
import { describe, type Step } from "./steps.ts"

const where = (outcome: Outcome, steps: number) =>
  outcome.failure && outcome.failure.at >= steps ? "while draining" : `at step ${outcome.failure?.at}`

/** The failure as a person reads it: seed, how to replay it, the broken rule, the shortest steps found. */
export function failureReport(seed: number, count: number, failed: Outcome, shrunk: Shrunk, trace: string[]): string {
  const lines = (steps: Step[]) => steps.map((step, i) => `    ${String(i).padStart(4)}  ${describe(step)}`)
  const traced = trace.map((line, i) => `    ${i < shrunk.steps.length ? String(i).padStart(4) : "drain"}  ${line}`)
  const first = failed.failure?.violation
  const last = shrunk.outcome.failure
  return [
    `schedule simulator: seed ${seed} broke [${first?.rule}] ${where(failed, count)} of ${count}`,
    `  replay: SIM_SEED=${seed} SIM_STEPS=${count} npx vitest run test/sim`,
    `  ${first?.message}`,
    `  shrunk to ${shrunk.steps.length} steps (${shrunk.replays} replays), then a drain; it breaks [${last?.violation.rule}] ${where(shrunk.outcome, shrunk.steps.length)}:`,
    ...lines(shrunk.steps),
    ...(last?.all ?? []).map((v) => `  [${v.rule}] ${v.message}`),
    "  trace of the shrunk run (times in seconds from T0):",
    ...traced,
  ].join("\n")
}
