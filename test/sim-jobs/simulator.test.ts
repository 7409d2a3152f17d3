import { env } from "cloudflare:test"
import { describe, expect, it } from "vitest"
import { simulate } from "./simulate.ts"
import { generate } from "./steps.ts"

describe("jobs simulator (smoke)", () => {
  it("runs a few hundred steps", async () => {
    const seed = Number(env.SIM_SEED || 1)
    const steps = Number(env.SIM_STEPS || 300)
    const started = Date.now()
    const outcome = await simulate(generate(seed, steps))
    console.info(JSON.stringify({ ms: Date.now() - started, ...outcome }, null, 1))
    expect(outcome.failure).toBeUndefined()
  }, 600_000)
})
