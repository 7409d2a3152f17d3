import { expect, it } from "vitest"
import { explore } from "./explore.ts"
import { chosen, SEED_TIMEOUT_MS, seedSuite } from "./suite.ts"

// SIM_SEED=<n> [SIM_STEPS=<m>] npx vitest run test/sim: that seed alone, as long as asked.
if (chosen) {
  const { seed, steps } = chosen
  it(
    `SIM_SEED=${seed}: ${steps} random steps, then a drain, keep every invariant`,
    async () => {
      const { outcome, report } = await explore(seed, steps)
      console.log(
        `seed ${seed}: ${JSON.stringify(outcome.counters)}; known src bugs hit: ${JSON.stringify(outcome.known)}`,
      )
      if (report) expect.fail(report)
    },
    SEED_TIMEOUT_MS + steps * 30,
  )
}

seedSuite(
  "schedule stream simulator (seeds 1-12)",
  Array.from({ length: 12 }, (_, i) => i + 1),
)
