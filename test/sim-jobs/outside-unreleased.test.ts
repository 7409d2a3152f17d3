import { describe, expect, it } from "vitest"
import { simulate } from "./simulate.ts"
import type { Plan, Step } from "./steps.ts"

/**
 * Issue 45, item 6 (an outsider's breaks of 60c6cca, "a slot that ran unrecorded is never said taken again"):
 * each a slot whose run ran unrecorded, asked for again later. One job every minute, on the free plan.
 */
const planOf = (steps: Step[]): Plan => ({ seed: 9_000, plan: "free", cadences: [{ every: 1 }], steps })
const beat: Step = { op: "beat", skewMs: 0, faults: [], acts: {}, mode: "batch" }
const tick: Step = { op: "tick", offsetMs: 1_000 }
const unrecorded: Step = { ...beat, faults: [{ target: "release", kind: "fail" }] }

describe("a slot that ran unrecorded, asked for again", () => {
  // 00:01 ran, its release failed; an operator force-releases the lease (holder cleared, 00:01 not kept); 00:02 runs;
  // a replica 60 s behind asks for 00:01.
  it("after an operator's forced release, is not said taken", async () => {
    const steps: Step[] = [tick, unrecorded, { op: "release", job: 0, force: true }, tick, beat]
    const outcome = await simulate(planOf([...steps, { ...beat, skewMs: -60_000 }]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })

  // The same, the operator's release unforced once the lease has ended.
  it("after an operator's unforced release of the ended lease, is not said taken", async () => {
    const steps: Step[] = [tick, unrecorded, tick, tick, { op: "release", job: 0, force: false }, beat]
    const outcome = await simulate(planOf([...steps, { ...beat, skewMs: -120_000 }]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })

  // 00:01 ran, its release failed; its lease ends; a 0.1.0 replica (which knows no unreleased_slots) takes the
  // lease for 00:03 and runs it; a replica three minutes behind asks for 00:01.
  // Was a defect: 0.1.0's claim overwrites holder and last_slot without keeping the unreleased holder's slot, so 00:01
  // was said `slot taken` (a second line, and a skipped history entry for a slot that ran). Migration 0012's trigger
  // keeps it for any release's claim.
  it("after a 0.1.0 replica took the lease from its run, is not said taken", async () => {
    const steps: Step[] = [tick, unrecorded, tick, tick, { op: "old", job: 0, skewMs: 0 }, tick, beat]
    const outcome = await simulate(planOf([...steps, { ...beat, skewMs: -180_000 }]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })

  // Two runs in a row unrecorded (00:01, then 00:03 after 00:02's lease held); 00:05 runs; replicas behind ask for both.
  it("two in a row are neither said taken", async () => {
    const steps: Step[] = [tick, unrecorded, tick, beat, tick, unrecorded, tick, beat, tick, beat]
    const behind = [-240_000, -120_000].map((skewMs): Step => ({ ...beat, skewMs }))
    const outcome = await simulate(planOf([...steps, ...behind]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })

  // 00:01's claim answers late and the batch that would end its lease and record it skipped fails; 00:02 is refused,
  // lease held; 00:03 runs; a replica two minutes behind asks for 00:01.
  it("after its late claim's compensating release failed, is not said taken", async () => {
    const late: Step = {
      ...beat,
      faults: [
        { target: "claim", kind: "late" },
        { target: "release", kind: "fail" },
      ],
    }
    const steps: Step[] = [tick, late, tick, beat, tick, beat, { ...beat, skewMs: -120_000 }]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })

  // 00:59 ran unrecorded; 01:00 is refused, lease held; 01:01 runs (a new hour); a replica behind asks for 00:59.
  it("in the hour before, is not said taken", async () => {
    const before: Step[] = Array.from({ length: 58 }, () => tick)
    const steps: Step[] = [...before, tick, unrecorded, tick, beat, tick, beat, { ...beat, skewMs: -120_000 }]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })

  // 00:01 is handed to the queue; its delivery runs it unrecorded and leaves the message queued (a redelivery
  // follows); 00:03 runs; the message is delivered again, twice in one batch.
  it("when its queue message is redelivered after a later slot ran, twice in a batch, is not said taken", async () => {
    const deliver: Step = { op: "deliver", count: 1, again: true, faults: [], acts: {}, mode: "batch" }
    const failing: Step = { ...deliver, faults: [{ target: "release", kind: "fail" }] }
    const steps: Step[] = [tick, { op: "handOff" }, { op: "handOff" }, failing, tick, beat, tick, beat]
    const outcome = await simulate(planOf([...steps, { ...deliver, count: 2, again: false }]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })
})

describe("a slot that ran unrecorded, in the batch whose claim keeps it", () => {
  // 00:01 is handed to the queue and run by the heartbeat, unrecorded; 00:03 is handed off too; one batch holds both:
  // 00:03's claim takes the lease (keeping 00:01) and 00:01's lookup, after it, must find it kept.
  it("is not said taken", async () => {
    const deliver: Step = { op: "deliver", count: 2, again: false, faults: [], acts: {}, mode: "batch" }
    const steps: Step[] = [tick, { op: "handOff" }, unrecorded, tick, tick, { op: "handOff" }, deliver]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters.ran).toBe(1)
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })
})

describe("a slot whose skip is already said, asked for again once a later slot ran", () => {
  const kept: Step = { op: "deliver", count: 1, again: true, faults: [], acts: {}, mode: "batch" }
  const last: Step = { ...kept, again: false }

  // 00:01's message arrives after 00:02 ran (slot taken: a line, an entry), then is redelivered in a later batch.
  it("said taken by a late message, is not said taken again by its redelivery", async () => {
    const outcome = await simulate(planOf([tick, { op: "handOff" }, tick, beat, kept, last]), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["slot taken"]).toBe(1)
  })

  // 00:01 ran unrecorded; 00:02's message finds the lease held (a line, an entry) and is redelivered after 00:04 ran.
  it("skipped as lease held, is not said taken too by its message's redelivery", async () => {
    const steps: Step[] = [tick, unrecorded, tick, { op: "handOff" }, kept, tick, tick, beat, last]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["lease held"]).toBe(1)
    expect(outcome.counters["slot taken"] ?? 0).toBe(0)
  })
})

describe("a slot refused as lease held", () => {
  // 00:01 ran unrecorded; at 00:02 two replicas' heartbeats fire: the lease is held for both.
  it("is said held once when two replicas' heartbeats ask for it", async () => {
    const steps: Step[] = [tick, unrecorded, tick, beat, { ...beat, skewMs: 2_000 }]
    const outcome = await simulate(planOf(steps), { tolerate: [] })
    expect(outcome.failure?.all).toBeUndefined()
    expect(outcome.counters["lease held"]).toBe(1)
  })
})
