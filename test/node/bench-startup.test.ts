import { describe, expect, it } from "vitest"
import { activeOf } from "../../scripts/bench/startup.ts"

const node = (id: number, functionName: string) => ({ id, callFrame: { functionName } })

describe("the startup workload's reading of a profile", () => {
  it("counts each sample's time (the delta before it) as active unless idle, collections included", () => {
    const profile = {
      nodes: [node(1, "(root)"), node(2, "(idle)"), node(3, "(garbage collector)"), node(4, "globalScope")],
      samples: [4, 2, 3, 4, 2],
      timeDeltas: [1_000, 25_000, 2_000, 4_000, 9_000],
    }
    expect(activeOf(profile)).toEqual({ activeMs: 7, gcMs: 2 })
  })

  it("reads nothing active from a profile of idle samples only", () => {
    expect(activeOf({ nodes: [node(1, "(idle)")], samples: [1, 1], timeDeltas: [5, 5] })).toEqual({
      activeMs: 0,
      gcMs: 0,
    })
  })
})
