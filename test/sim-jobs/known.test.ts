import { describe, expect, it } from "vitest"
import { KNOWN } from "./known.ts"
import { simulate } from "./simulate.ts"
import type { Plan, Step } from "./steps.ts"

/** The smallest runs that break each KNOWN rule: one job every minute, on the free plan. */
const planOf = (steps: Step[]): Plan => ({ seed: 9_000, plan: "free", cadences: [{ every: 1 }], steps })
const beat: Step = { op: "beat", skewMs: 0, faults: [], acts: {}, mode: "batch" }
const tick: Step = { op: "tick", offsetMs: 1_000 }

const deliver: Step = { op: "deliver", count: 2, again: false, faults: [], acts: {}, mode: "batch" }

/** The smallest run that breaks each KNOWN rule, kept as that rule's repro (none left: each is now a plain test). */
const repros: Record<string, Step[]> = {}

/**
 * The 00:01 run's release fails (it ran, unrecorded); 00:02 is refused, lease held; `takeover` claims 00:03, keeping
 * 00:01 as won and unreleased; a replica two minutes behind asks for 00:01 again.
 */
const unrecordedThen = (takeover: Step): Step[] => [
  tick,
  { ...beat, faults: [{ target: "release", kind: "fail" }] },
  tick,
  beat,
  tick,
  takeover,
  { ...beat, skewMs: -120_000 },
]

describe("fixed on i45: a slot that ran unrecorded (its release failed)", () => {
  it("is not said taken again when a replica asks for it", async () => {
    const outcome = await simulate(planOf(unrecordedThen(beat)), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })
})

describe("fixed on i45: a slot that ran unrecorded, its lease then released by an operator", () => {
  // The 00:01 run's release fails; an operator force-releases its lease; 00:02 runs; a replica behind asks for 00:01.
  it("is not said taken again when a replica asks for it", async () => {
    const steps: Step[] = [
      tick,
      { ...beat, faults: [{ target: "release", kind: "fail" }] },
      { op: "release", job: 0, force: true },
      tick,
      beat,
      { ...beat, skewMs: -60_000 },
    ]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })
})

describe("fixed on i45: a queue batch holding an older slot's message twice (a redelivery)", () => {
  // 00:01 is handed to the queue twice, 00:02 once; 00:02 runs; one batch then holds all three messages.
  it("says that slot taken once, with one history entry", async () => {
    const steps: Step[] = [tick, { op: "handOff" }, { op: "handOff" }, tick, { op: "handOff" }, beat]
    const outcome = await simulate(planOf([...steps, { ...deliver, count: 3 }]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"]).toBe(1)
  })
})

describe("fixed on i45: a slot whose claim won too late to run it", () => {
  // The 00:01 claim answers late (its slot recorded skipped); 00:02 runs; a replica 60 s behind asks for 00:01 again.
  it("is not said taken again when a replica asks for it", async () => {
    const steps: Step[] = [tick, { ...beat, faults: [{ target: "claim", kind: "late" }] }, tick, beat]
    const outcome = await simulate(planOf([...steps, { ...beat, skewMs: -60_000 }]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
  })
})

describe("fixed on i45: a slot that ran unrecorded whose lease a 0.1.0 replica took next (a rollout)", () => {
  // Migration 0012's trigger keeps 00:01 unreleased for 0.1.0's claim of 00:03.
  it("is not said taken again when a replica asks for it", async () => {
    const outcome = await simulate(planOf(unrecordedThen({ op: "old", job: 0, skewMs: 0 })), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["old replica ran"]).toBe(1)
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })
})

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
  it("reads ran in the history at once, before today's version releases the job, and never missed after", async () => {
    const steps: Step[] = [tick, { op: "old", job: 0, skewMs: 0 }, tick, beat, tick, beat, tick, beat]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["old replica ran"]).toBe(1)
  })
  it("reads ran when today's version has not run the job since", async () => {
    const outcome = await simulate(planOf([tick, beat, tick, { op: "old", job: 0, skewMs: 0 }]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
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
      expect([...new Set(outcome.failure?.all.map((violation) => violation.rule))]).toEqual([rule])
    })
  }
  it("every tolerated rule has a repro", () => {
    expect(Object.keys(repros).sort()).toEqual(Object.keys(KNOWN).sort())
  })
})
