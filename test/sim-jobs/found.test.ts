import { describe, expect, it } from "vitest"
import { simulate } from "./simulate.ts"
import type { Plan, Step } from "./steps.ts"

/**
 * What the 100,000-step runs found on the merged i45 code (seeds 101, 102, 104), each as its smallest repro.
 * `it.fails` until fixed: then each fails, and becomes a plain `it`.
 */
const planOf = (steps: Step[], jobs = 1): Plan => ({
  seed: 9_000,
  plan: "free",
  cadences: Array.from({ length: jobs }, () => ({ every: 1 })),
  steps,
})
const tick: Step = { op: "tick", offsetMs: 1_000 }

describe("found by the long runs", () => {
  // Seed 101, step 2970: a pause, its resume and a pause again in one millisecond: the second pause answered 500
  // (its row's key, job and paused_at, is the resumed pause's); the resumed pause now opens again.
  it("a pause right after a resume, in the same millisecond, answers 200", async () => {
    const steps: Step[] = [tick, { op: "pause", job: 0 }, { op: "resume", job: 0 }, { op: "pause", job: 0 }]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all.map((violation) => violation.rule) ?? []).not.toContain("admin-answer")
  })

  // Seeds 102 (step 2578) and 104 (step 2452), free plan, each statement of a batch counted on its own: at the hour's
  // turn each release also flushes its hour, and the batch passes the 50 queries D1 allows: runs unrecorded, leases held.
  it("the free plan's releases at an hour's turn stay within 50 queries counted a statement each", async () => {
    const beat = (mode: "batch" | "statement", queries = 0): Step => ({
      op: "beat",
      skewMs: 0,
      faults: [],
      acts: { 0: { fail: false, queries, session: false } },
      mode,
    })
    const steps: Step[] = []
    for (let minute = 0; minute < 59; minute++) steps.push(tick, beat("batch"))
    steps.push(tick, beat("statement", 45))
    const outcome = await simulate(planOf(steps, 5), { tolerate: [] })
    expect(outcome.failure?.all.map((violation) => violation.rule) ?? []).not.toContain("d1-refused")
  }, 240_000)

  // Seed 3 (20,000 steps), step 64: a job only 0.1.0 replicas ran today has no hour row, so nothing was known of
  // it before its lease's slot: the slot between its two runs read "unknown", neither missed nor paused.
  it("a slot between two runs of a 0.1.0 replica, with no hour row, reads missed", async () => {
    const old: Step = { op: "old", job: 0, skewMs: 0 }
    const outcome = await simulate(planOf([tick, old, tick, tick, old]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
  })

  // Seeds 2 (step 1647) and 3 (step 3053), 20,000 steps: a queue batch holding a job's slots of two hours looked up
  // only the oldest one's hour, so a slot of the later hour whose claim won too late was said taken again.
  it("a queue batch's slots of two hours: one whose claim won too late is not said taken again", async () => {
    const beat: Step = { op: "beat", skewMs: 0, faults: [], acts: {}, mode: "batch" }
    const steps: Step[] = []
    for (let minute = 0; minute < 58; minute++) steps.push(tick, beat)
    steps.push(
      tick,
      { op: "handOff" },
      tick,
      { op: "handOff" },
      { ...beat, faults: [{ target: "claim", kind: "late" }] },
    )
    steps.push(tick, beat, { op: "deliver", count: 2, again: false, faults: [], acts: {}, mode: "batch" })
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"]).toBe(1)
  }, 240_000)
})
