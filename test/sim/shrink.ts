import type { Outcome } from "./simulate.ts"
import type { Step } from "./steps.ts"

export interface Shrunk {
  steps: Step[]
  outcome: Outcome
  replays: number
}

/** Smaller versions of one step: without its fault, its failing consumers, its attempt cap. */
function simpler(step: Step): Step[] {
  const out: Step[] = []
  if (step.fault !== undefined) {
    const { fault: _, ...rest } = step
    out.push(rest as Step)
  }
  if (step.op === "tick") {
    for (const id of Object.keys(step.behave)) {
      const behave = { ...step.behave }
      delete behave[id as keyof typeof behave]
      out.push({ ...step, behave })
    }
    if (step.alarm) out.push({ ...step, alarm: false })
  }
  if (step.op === "upsert" && step.maxAttempts !== undefined) {
    const { maxAttempts: _, ...rest } = step
    out.push(rest as Step)
  }
  if (step.op === "upsert" && step.retention !== undefined) {
    const { retention: _, ...rest } = step
    out.push(rest as Step)
  }
  return out
}

/**
 * Shrinks a failing run to a shorter one that breaks the same rule: cut after the failing step,
 * delete ever smaller chunks of steps, then simplify single steps. Deterministic, like the replays.
 */
export async function shrink(
  steps: readonly Step[],
  failed: Outcome,
  replay: (steps: Step[]) => Promise<Outcome>,
  budget = { replays: 400, ms: 120_000 },
): Promise<Shrunk> {
  const rule = failed.failure?.violation.rule
  const cut = (candidate: Step[], outcome: Outcome) => candidate.slice(0, (outcome.failure?.at ?? candidate.length) + 1)
  let best = cut([...steps], failed)
  let outcome = failed
  let replays = 0
  const started = Date.now()
  const tryCandidate = async (candidate: Step[]): Promise<boolean> => {
    if (replays >= budget.replays || Date.now() - started > budget.ms) return false
    replays++
    const result = await replay(candidate)
    if (result.failure?.violation.rule !== rule) return false
    best = cut(candidate, result)
    outcome = result
    return true
  }

  let improved = true
  while (improved) {
    improved = false
    for (let chunk = Math.max(1, Math.floor(best.length / 2)); chunk >= 1; chunk = Math.floor(chunk / 2)) {
      for (let i = 0; i < best.length; ) {
        const candidate = [...best.slice(0, i), ...best.slice(i + chunk)]
        if (await tryCandidate(candidate)) improved = true
        else i += chunk
      }
    }
    for (let i = 0; i < best.length; i++) {
      for (const variant of simpler(best[i] as Step)) {
        if (await tryCandidate([...best.slice(0, i), variant, ...best.slice(i + 1)])) {
          improved = true
          break
        }
      }
    }
  }
  return { steps: best, outcome, replays }
}
