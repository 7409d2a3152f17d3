import { describe, expect, it } from "vitest"
import { KNOWN } from "./known.ts"
import { simulate } from "./simulate.ts"
import type { Plan, Step } from "./steps.ts"

/** The smallest runs that break each KNOWN rule: one job every minute, on the free plan. */
const planOf = (steps: Step[]): Plan => ({ seed: 9_000, plan: "free", cadences: [{ every: 1 }], steps })
const beat: Step = { op: "beat", skewMs: 0, faults: [], acts: {}, mode: "batch" }
const tick: Step = { op: "tick", offsetMs: 1_000 }

const deliver: Step = { op: "deliver", count: 2, again: false, faults: [], acts: {}, mode: "batch" }

const repros: Record<string, Step[]> = {
  // 00:01 is handed to the queue twice, 00:02 once; 00:02 runs; one batch then holds all three messages.
  "slot-taken-twice": [
    tick,
    { op: "handOff" },
    { op: "handOff" },
    tick,
    { op: "handOff" },
    beat,
    { ...deliver, count: 3 },
  ],
  // 0.1.0 runs the 00:01 slot; today's heartbeat runs 00:02 and 00:03: the 00:01 slot must read "ran".
  "history-old-replica": [tick, { op: "old", job: 0, skewMs: 0 }, tick, beat, tick, beat],
  // The 00:01 claim answers late (its slot recorded skipped); 00:02 runs; a replica 60 s behind asks for 00:01 again.
  "slot-taken-again": [
    tick,
    { ...beat, faults: [{ target: "claim", kind: "late" }] },
    tick,
    beat,
    { ...beat, skewMs: -60_000 },
  ],
}

describe("fixed on i45: a late message's slot", () => {
  // The 00:01 slot is handed to the queue; the 00:02 heartbeat runs 00:02; the message then finds 00:01 taken,
  // and says so once, with one skipped entry in the history.
  it("is said taken, once, with its history entry", async () => {
    const one: Step = { ...deliver, count: 1 }
    const outcome = await simulate(planOf([tick, { op: "handOff" }, tick, beat, one, tick, beat]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"]).toBe(1)
  })
})

describe("fixed on i45: a 0.1.0 replica's run during a rollout", () => {
  it("is in the history once today's version next releases the job, never missed after", async () => {
    const steps: Step[] = [tick, { op: "old", job: 0, skewMs: 0 }, tick, beat, tick, beat, tick, beat]
    const outcome = await simulate(planOf(steps), { tolerate: ["history-old-replica"] })
    expect(outcome.failure?.all).toBeUndefined()
    // Between the two, the slot reads claimed: tolerated, and counted.
    expect(outcome.known["history-old-replica"]).toBeGreaterThan(0)
  })
})

describe("what the jobs simulator tolerates is each pinned by its repro", () => {
  for (const [rule, steps] of Object.entries(repros)) {
    // it.fails until the fix is merged: then this fails, and the rule leaves KNOWN.
    it.fails(`[${rule}] ${KNOWN[rule]}: kept`, async () => {
      const outcome = await simulate(planOf(steps), { tolerate: [] })
      expect(outcome.failure?.violation).toBeUndefined()
    })
    it(`[${rule}] the repro breaks that rule and no other`, async () => {
      const outcome = await simulate(planOf(steps), { tolerate: [] })
      expect(outcome.failure?.all.map((violation) => violation.rule)).toEqual([rule])
    })
  }
  it("every tolerated rule has a repro", () => {
    expect(Object.keys(repros).sort()).toEqual(Object.keys(KNOWN).sort())
  })
})
