import { env, runInDurableObject } from "cloudflare:test"
import type { Counters, Violation } from "./model.ts"
import type { Step } from "./steps.ts"
import { World, type WorldOptions } from "./world.ts"

export interface Outcome {
  /** The first broken rule, the step that broke it (steps.length: while draining), and all it broke. */
  failure?: { at: number; violation: Violation; all: Violation[] }
  counters: Counters
  /** How often each tolerated (KNOWN) rule broke. */
  known: Record<string, number>
}

let runs = 0

/** Plays `steps` on a fresh stream, then drains it; stops at the first step that breaks a rule. */
export async function simulate(steps: readonly Step[], label: string, options: WorldOptions = {}): Promise<Outcome> {
  const name = `sim-${label}-${++runs}`
  const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(name))
  // The object workerd builds is never called: the world drives generations of its own on its storage.
  return runInDurableObject(stub, async (_instance, state) => {
    const world = new World(name, state, options)
    await world.install()
    const outcome = (at: number): Outcome => {
      const [violation, ...rest] = world.model.violations
      const { counters, known } = world.model
      return violation
        ? { failure: { at, violation, all: [violation, ...rest] }, counters, known }
        : { counters, known }
    }
    try {
      for (let i = 0; i < steps.length; i++) {
        await world.run(steps[i] as Step)
        if (world.model.violations.length) return outcome(i)
      }
      await world.drain()
      return outcome(steps.length)
    } finally {
      world.dispose()
    }
  })
}
