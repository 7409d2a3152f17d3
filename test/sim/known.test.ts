import { describe, expect, it } from "vitest"
import { shrink } from "./shrink.ts"
import { simulate } from "./simulate.ts"
import { generate, type Step } from "./steps.ts"

/** Each src bug the simulator found, by its shrunk steps: the rule it broke, and where, before the fix. */
const FOUND: Record<string, { what: string; steps: Step[] }> = {
  // s1's last allowed attempt is skipped and its window ends, so it completes keeping its last error; an upsert whose
  // count is already reached leaves it completed, and must clear that error as every completion does.
  "completed-upsert": {
    what: "an upsert that completes a schedule (its count reached) kept a skipped attempt's last error",
    steps: [
      { op: "clock", ms: 15_237 },
      {
        op: "upsert",
        id: "s1",
        consumer: "test.quick",
        timing: { cron: "* * * * *" },
        maxAttempts: 2,
        payload: 2,
        endAt: 300_000,
      },
      { op: "clock", ms: 257_927 },
      { op: "tick", alarm: false, behave: { s1: "hang" } },
      { op: "tick", alarm: true, behave: { s1: "malformed" } },
      {
        op: "upsert",
        id: "s1",
        consumer: "test.quick",
        timing: { cron: "* * * * *" },
        payload: 0,
        endAt: -30_000,
        times: 1,
      },
    ],
  },
  // The 4th statement of the tick (meta 'stream', read after the claims) fails: the claim is never dispatched.
  "undelivered-claim": {
    what: "a storage error after a tick's claims stranded them and leaked dispatch room",
    steps: [
      { op: "upsert", id: "s1", consumer: "test.quick", timing: { after: 90_000 }, payload: 0 },
      { op: "tick", alarm: true, behave: {}, fault: 3 },
    ],
  },
  // s1 answers retry after its tick yielded while s0 is still out: retry_at (1 s) is before the alarm (s1's old lease).
  "alarm-late-settlement": {
    what: "a settlement after its tick yielded lowered eligible_at without re-arming the alarm",
    steps: [
      { op: "upsert", id: "s0", consumer: "test.scripted", timing: { every: 60_000 }, payload: 0 },
      { op: "upsert", id: "s1", consumer: "test.quick", timing: { every: 1_000 }, payload: 0 },
      { op: "clock", ms: 60_000 },
      { op: "tick", alarm: false, behave: { s0: "wait", s1: "wait" } },
      { op: "answer", pick: 0, answer: "retry" },
    ],
  },
  // The upsert commits, then arm()'s read of the next eligible_at fails: no alarm for a due schedule.
  "alarm-after-failed-arm": {
    what: "a call that committed and then failed to arm left the alarm stale, with no recovery",
    steps: [{ op: "upsert", id: "s3", consumer: "test.scripted", timing: { every: 60_000 }, payload: 0, fault: 5 }],
  },
  // The fresh object's first statement (CREATE TABLE IF NOT EXISTS meta) fails once: it refuses from then on.
  "refused-for-good": {
    what: "a transient storage error in the constructor's migration refused every later call",
    steps: [
      { op: "upsert", id: "s0", consumer: "test.scripted", timing: { at: 1_000 }, payload: 0 },
      { op: "evict", fault: 0 },
    ],
  },
  // An every schedule is retimed to a one-shot at the due time of its delivery in flight: the delivery
  // settled with the claimed timing, so the one-shot went on to occurrence 2 under a new key (issue 11, item 1).
  advance: {
    what: "a settlement advanced with the timing captured at claim, not the one stored now",
    steps: [
      { op: "upsert", id: "s4", consumer: "test.scripted", timing: { every: 1_000 }, payload: 2 },
      { op: "clock", ms: 21_581 },
      { op: "tick", alarm: false, behave: { s4: "wait" } },
      { op: "upsert", id: "s4", consumer: "test.quick", timing: { at: "due" }, payload: 1 },
    ],
  },
  // maxAttempts 1, the first attempt is lost with the object: a second attempt is delivered anyway.
  "max-attempts": {
    what: "an occurrence whose attempts were lost was claimed past maxAttempts",
    steps: [
      { op: "upsert", id: "s0", consumer: "test.scripted", timing: { at: 0 }, maxAttempts: 1, payload: 0 },
      { op: "tick", alarm: false, behave: { s0: "wait" } },
      { op: "evict" },
      { op: "clock", ms: 60_000 },
      { op: "tick", alarm: false, behave: {} },
    ],
  },
}

describe("src bugs the simulator found, fixed", () => {
  for (const [rule, found] of Object.entries(FOUND)) {
    it(`${rule}: no longer ${found.what}`, async () => {
      const outcome = await simulate(found.steps, `found-${rule}`, { tolerate: [] })
      expect(outcome.failure?.violation.message).toBeUndefined()
    })
  }
})

describe("the oracle", () => {
  it("notices a settlement fence that lets stale results through, and shrinks it to a few steps", async () => {
    const steps = generate(1, 2_000)
    expect((await simulate(steps, "control")).failure).toBeUndefined()

    const sabotaged = await simulate(steps, "sabotage", { sabotage: "fence" })
    expect(sabotaged.failure?.violation.rule).toBe("fence")
    const shrunk = await shrink(steps, sabotaged, (candidate) =>
      simulate(candidate, "sabotage-shrink", { sabotage: "fence" }),
    )
    expect(shrunk.outcome.failure?.violation.rule).toBe("fence")
    expect(shrunk.steps.length).toBeLessThanOrEqual(8)
    expect(shrunk.steps.length).toBeLessThan(sabotaged.failure?.at ?? 0)
  }, 240_000)
})
