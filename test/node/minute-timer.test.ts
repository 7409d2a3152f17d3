import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { startMinuteTimer } from "../../src/infra/node/minute-timer.ts"

const MINUTE = 60_000
const START = Date.UTC(2026, 10, 30, 4, 12, 41, 500)

describe("the container's minute timer", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(START)
  })
  afterEach(() => vi.useRealTimers())

  it("fires at every UTC minute boundary with that boundary as the scheduled time", () => {
    const fired: number[] = []
    const timer = startMinuteTimer((time) => fired.push(time))
    vi.advanceTimersByTime(18_499)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(1)
    vi.advanceTimersByTime(3 * MINUTE)
    timer.stop()
    const first = Date.UTC(2026, 10, 30, 4, 13)
    expect(fired).toEqual([first, first + MINUTE, first + 2 * MINUTE, first + 3 * MINUTE])
  })

  it("fires a boundary once when the wall clock steps back, and nothing after stop", () => {
    const fired: number[] = []
    const timer = startMinuteTimer((time) => {
      fired.push(time)
      // The wall clock steps back 10 s right after the boundary fired.
      vi.setSystemTime(time - 10_000)
    })
    vi.advanceTimersByTime(18_500 + 2 * MINUTE)
    timer.stop()
    vi.advanceTimersByTime(5 * MINUTE)
    const first = Date.UTC(2026, 10, 30, 4, 13)
    expect(fired).toEqual([first, first + MINUTE])
  })
})
