import { describe, expect, it } from "vitest"
import { breakdown, bucketOf, type CpuProfile } from "../../scripts/bench/buckets.ts"

const frame = (functionName: string, file = "") => ({ functionName, url: file ? `file:///repo/${file}` : "" })
const tick = frame("tick", "src/infra/schedules/stream/tick.ts")

describe("the profile's buckets (scripts/bench/buckets.ts)", () => {
  it("gives the SQL to the step that runs it: the claim's to the claim, the fence read's to the settlement", () => {
    const exec = frame("exec", "src/infra/schedules/stream/store.ts")
    const claimDue = frame("claimDue", "src/infra/schedules/stream/delivery-claim.ts")
    const settleAll = frame("settleAll", "src/infra/schedules/stream/settlement.ts")
    expect(bucketOf([exec, frame("selectDue", "src/infra/schedules/stream/store.ts"), claimDue, tick])).toBe(
      "select and claim",
    )
    expect(bucketOf([exec, frame("getMany", "src/infra/schedules/stream/store.ts"), settleAll, tick])).toBe(
      "settlement",
    )
  })

  it("names the innermost step: a timer set by dispatch is a deadline timer, a consumer's frame the consumer", () => {
    const deliver = frame("deliver", "src/infra/schedules/stream/dispatch.ts")
    expect(bucketOf([frame("setTimeout"), frame("within", "src/infra/deadline.ts"), deliver, tick])).toBe(
      "deadline timers",
    )
    expect(bucketOf([frame("deliver", "scripts/bench/consumers.ts"), deliver])).toBe("consumer")
    expect(bucketOf([frame("logLine", "src/infra/log.ts"), tick])).toBe("logging")
    expect(bucketOf([frame("(idle)")])).toBe("output-gate waits / idle")
    expect(bucketOf([frame("(garbage collector)")])).toBe("garbage collection")
    expect(bucketOf([frame("somethingElse", "node_modules/x/index.js")])).toBe("other")
  })

  it("attributes each sample's time over the window from the first to the last sample inside a tick", () => {
    // root(1) -> tick(2) -> claimDue(3); root -> (idle)(4); root -> (program)(5)
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame("(root)"), children: [2, 4, 5] },
        { id: 2, callFrame: tick, children: [3] },
        { id: 3, callFrame: frame("claimDue", "src/infra/schedules/stream/delivery-claim.ts") },
        { id: 4, callFrame: frame("(idle)") },
        { id: 5, callFrame: frame("(program)") },
      ],
      startTime: 0,
      // Samples at 0, 1,000, 2,000, 3,000, 4,000 µs; the profile ends at 5,000.
      samples: [4, 3, 4, 2, 5],
      timeDeltas: [0, 1_000, 1_000, 1_000, 1_000],
      endTime: 5_000,
    }
    const result = breakdown(profile)
    // The window: the claim at 1,000 to the end of the tick's sample at 4,000; the idle before it is left out.
    expect(result.windowMs).toBe(3)
    expect(result.samples).toBe(3)
    expect(result.tickSamples).toBe(2)
    expect(result.ms["select and claim"]).toBe(1)
    expect(result.ms["output-gate waits / idle"]).toBe(1)
    expect(result.ms["alarm entry"]).toBe(1)
  })

  it("finds no window in a profile without a tick", () => {
    const profile: CpuProfile = {
      nodes: [{ id: 1, callFrame: frame("(idle)") }],
      startTime: 0,
      samples: [1, 1],
      timeDeltas: [0, 10],
      endTime: 20,
    }
    expect(breakdown(profile)).toMatchObject({ windowMs: 0, samples: 0, tickSamples: 0 })
  })
})
