import { env } from "cloudflare:test"
import { describe, expect, it } from "vitest"
import { explore } from "./explore.ts"
import type { Counters } from "./model.ts"

/** Steps per fixed seed: about 2-4 s each on a 2-core machine. */
export const STEPS = 5_000
/** A clean seed takes seconds; a failing one also shrinks, for at most 120 s. */
export const SEED_TIMEOUT_MS = 240_000

function fromEnv(): { seed: number; steps: number } | undefined {
  if (!env.SIM_SEED) return undefined
  const seed = Number(env.SIM_SEED)
  const steps = Number(env.SIM_STEPS || STEPS)
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(steps) || steps < 1)
    throw new Error(`SIM_SEED and SIM_STEPS must be integers, got "${env.SIM_SEED}" and "${env.SIM_STEPS}"`)
  return { seed, steps }
}

/** SIM_SEED / SIM_STEPS (passed through vitest.config.ts): run that seed instead of the fixed ones. */
export const chosen = fromEnv()

/** One test per seed, then one proving the seeds together reached every path the oracle judges. */
export function seedSuite(title: string, seeds: readonly number[]): void {
  describe.skipIf(chosen !== undefined)(title, () => {
    const totals: Record<string, number> = {}
    const known: Record<string, number> = {}
    const add = (into: Record<string, number>, from: object) => {
      for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + (n as number)
    }
    for (const seed of seeds) {
      it(
        `seed ${seed}: ${STEPS} random steps, then a drain, keep every invariant`,
        async () => {
          const { outcome, report } = await explore(seed, STEPS)
          add(totals, outcome.counters)
          add(known, outcome.known)
          if (report) expect.fail(report)
        },
        SEED_TIMEOUT_MS,
      )
    }
    it("the seeds reach every path the oracle judges", () => {
      console.log(`${title}: ${JSON.stringify(totals)}; known src bugs hit: ${JSON.stringify(known)}`)
      const paths: Array<keyof Counters> = [
        "deliveries",
        "fired",
        "retries",
        "terminal",
        "skipped",
        "stale",
        "cancelled",
        "lostLeases",
        "lateAnswers",
        "evictions",
        "faults",
        "recoveries",
        "idleTicks",
        "missingConsumer",
        "respelled",
        "retimedInFlight",
        "swept",
        "removed",
        "grouped",
        "withdrawn",
        "malformed",
        "jittered",
        "backfillDelivered",
        "backfilled",
        "backfillRefused",
        "ruleCompleted",
        "rulesRefused",
        "reasons",
      ]
      for (const path of paths) expect(totals[path] ?? 0, path).toBeGreaterThan(0)
      expect(totals.steps).toBeGreaterThanOrEqual(seeds.length * STEPS)
    })
  })
}
