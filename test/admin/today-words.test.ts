import { describe, expect, it } from "vitest"
import { todayCounts, todayWord } from "../../src/infra/admin/dashboard/browser/today-counts.ts"

type Status = Parameters<typeof todayCounts>[0][number]["status"]
const day = (...statuses: Status[]) =>
  todayCounts(statuses.map((status, i) => ({ slot: i * 60_000, status, ms: null })))

describe("the jobs table's Today words", () => {
  it("say all ran only when every past slot ran or runs now", () => {
    expect(todayWord(day("ran", "ran", "claimed", "due"))).toBe("all 3 ran")
    expect(todayWord(day("unknown", "due"))).toBe("none due yet")
  })

  it("never count a paused slot as ran: a job paused all day ran none", () => {
    expect(todayWord(day("paused", "paused", "paused", "due"))).toBe("0 of 3 ran · 3 paused")
    expect(todayWord(day("ran", "paused", "failed"))).toBe("1 of 3 ran · 1 paused")
    expect(todayWord(day("ran", "missed"))).toBe("1 of 2 ran")
  })
})
