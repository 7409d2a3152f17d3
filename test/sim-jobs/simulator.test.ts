import { env } from "cloudflare:test"
import { describe, expect, it } from "vitest"
import { simulate } from "./simulate.ts"
import { generate } from "./steps.ts"

/** Steps per fixed seed in CI: some 20-40 s each on a busy 2-core machine. */
const STEPS = 400
const SEEDS = [1, 2, 4]

/**
 * SIM_SEED / SIM_STEPS (passed through vitest.config.ts, as test/sim reads them): run that seed instead of the
 * fixed ones, e.g. `SIM_SEED=7 SIM_STEPS=100000 npx vitest run --project workers test/sim-jobs/simulator.test.ts`.
 */
function chosen(): { seed: number; steps: number } | undefined {
  if (!env.SIM_SEED) return undefined
  const seed = Number(env.SIM_SEED)
  const steps = Number(env.SIM_STEPS || STEPS)
  if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(steps) || steps < 1)
    throw new Error(`SIM_SEED and SIM_STEPS must be integers, got "${env.SIM_SEED}" and "${env.SIM_STEPS}"`)
  return { seed, steps }
}

const report = (seed: number, steps: number, outcome: Awaited<ReturnType<typeof simulate>>) =>
  [
    `jobs simulator: seed ${seed} broke [${outcome.failure?.violation.rule}] at step ${outcome.failure?.at} of ${steps}`,
    `  replay: SIM_SEED=${seed} SIM_STEPS=${(outcome.failure?.at ?? 0) + 1} npx vitest run --project workers test/sim-jobs/simulator.test.ts`,
    ...(outcome.failure?.all ?? []).map((violation) => `  [${violation.rule}] ${violation.message}`),
    "  the steps before it (wall clock, step, what the model judged: job, slot, fate):",
    ...(outcome.failure?.recent ?? []).map((line) => `    ${line}`),
  ].join("\n")

const run = chosen()

describe.runIf(run !== undefined)("jobs simulator, the chosen seed", () => {
  it(
    `seed ${run?.seed}: ${run?.steps} steps keep every rule`,
    async () => {
      const { seed, steps } = run as { seed: number; steps: number }
      // The world fakes Date: elapsed time is read from performance.now().
      const started = performance.now()
      const outcome = await simulate(generate(seed, steps), {
        progressEvery: 1_000,
        fullEvery: 100,
        progress: (at, counters) =>
          console.info(
            `seed ${seed}: ${at} steps in ${Math.round((performance.now() - started) / 1000)} s ${JSON.stringify(counters)}`,
          ),
      })
      console.info(
        `seed ${seed}: done in ${Math.round((performance.now() - started) / 1000)} s; known: ${JSON.stringify(outcome.known)}`,
      )
      if (outcome.failure) expect.fail(report(seed, steps, outcome))
    },
    4 * 3_600_000,
  )
})

describe.skipIf(run !== undefined)("jobs simulator, the fixed seeds", () => {
  const totals: Record<string, number> = {}
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${STEPS} random steps keep every rule`, async () => {
      const outcome = await simulate(generate(seed, STEPS))
      for (const [key, n] of Object.entries(outcome.counters)) totals[key] = (totals[key] ?? 0) + n
      if (outcome.failure) expect.fail(report(seed, STEPS, outcome))
    }, 240_000)
  }

  it("the seeds reach every path the model judges", () => {
    const paths = [
      ...[
        "beats",
        "replica beats",
        "hand-offs",
        "deliveries",
        "redeliveries",
        "hour turns",
        "batch counted",
        "statement counted",
      ],
      ...["pauses", "resumes", "run now", "release released", "old replica ran"],
      ...["claim fail", "claim late", "release fail", "release late", "pauses fail"],
      ...[
        "ran",
        "failed",
        "unrecorded",
        "taken",
        "paused",
        "lease held",
        "claim failed",
        "claim timed out",
        "budget refused",
      ],
    ]
    for (const path of paths) expect(totals[path] ?? 0, `${path} in ${JSON.stringify(totals)}`).toBeGreaterThan(0)
  })
})
