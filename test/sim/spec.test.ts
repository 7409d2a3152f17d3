import { describe, expect, it } from "vitest"
import { simulate } from "./simulate.ts"
import type { Step } from "./steps.ts"
import type { WorldOptions } from "./world.ts"

/**
 * The specification (spec.ts) against fixed runs: a healthy stream delivers every point of its definition and
 * coalesces none, and a fault planted in the stream's storage (plant.ts) is caught by the rule that names it,
 * where the per-step rules alone do not see it.
 */

const MINUTE = 60_000

/** Each occurrence claimed at its due time, answered `answerMs` later. */
function answeredIn(answerMs: number, occurrences: number): Step[] {
  return Array.from({ length: occurrences }, (): Step[] => [
    { op: "tick", alarm: true, behave: { s0: "wait" } },
    { op: "clock", ms: answerMs },
    { op: "answer", pick: 0, answer: "ok" },
  ]).flat()
}

const upsert = (rules: Partial<Extract<Step, { op: "upsert" }>> = {}): Step => ({
  op: "upsert",
  id: "s0",
  consumer: "test.scripted",
  timing: { every: MINUTE },
  payload: 0,
  ...rules,
})

const rulesBroken = async (steps: Step[], options: WorldOptions = {}) => {
  const outcome = await simulate(steps, "spec", options)
  return { outcome, rules: outcome.failure?.all.map((v) => v.rule) ?? [] }
}

describe("the specification", () => {
  it("a healthy jittered stream, answered in 20 s, delivers every point of its window and count, coalescing none", async () => {
    // The case: every minute, jitter 45 s, each answered in 20 s; before the fix about one point in nine was lost.
    const { outcome, rules } = await rulesBroken([
      upsert({ jitter: 45_000, endAt: 60 * MINUTE, times: 40 }),
      ...answeredIn(20_000, 45),
    ])
    expect(rules).toEqual([])
    expect(outcome.counters).toMatchObject({ fired: 40, coalesced: 0, ruleCompleted: 1 })
  })

  it("lets points go only when the stream was truly down, and counts them", async () => {
    const { outcome, rules } = await rulesBroken([
      upsert({ jitter: 30_000 }),
      ...answeredIn(1_000, 3),
      { op: "clock", ms: 10 * MINUTE },
      ...answeredIn(1_000, 3),
    ])
    expect(rules).toEqual([])
    expect(outcome.counters.fired).toBe(6)
    expect(outcome.counters.coalesced).toBeGreaterThanOrEqual(8)
  })

  const healthy = [upsert({ endAt: 5 * MINUTE + 1 }), ...answeredIn(100, 8)]

  it("passes the run the faults below are planted in", async () => {
    const { outcome, rules } = await rulesBroken(healthy)
    expect(rules).toEqual([])
    expect(outcome.counters).toMatchObject({ fired: 5, coalesced: 0 })
  })

  it.each([
    ["skip-point", "spec-skipped-point"],
    ["double-delivery", "spec-double-delivery"],
    ["past-end", "spec-past-end"],
  ] as const)("catches a planted fault: %s", async (sabotage, rule) => {
    const { rules } = await rulesBroken(healthy, { sabotage })
    expect(rules).toContain(rule)
  })
})
