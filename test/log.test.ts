import { afterEach, describe, expect, it, vi } from "vitest"
import { type LogLevel, logLine } from "../src/infra/log.ts"

afterEach(() => {
  vi.restoreAllMocks()
})

describe("logLine", () => {
  it.each<[LogLevel, "debug" | "log" | "warn" | "error"]>([
    ["debug", "debug"],
    ["info", "log"],
    ["warn", "warn"],
    ["error", "error"],
  ])("writes a %s line through console.%s only, so wrangler shows it at that level", (level, method) => {
    const spies = Object.fromEntries(
      (["debug", "log", "warn", "error"] as const).map((name) => [
        name,
        vi.spyOn(console, name).mockImplementation(() => {}),
      ]),
    )
    logLine(level, "something happened", { job: "a.job" })
    for (const [name, spy] of Object.entries(spies)) {
      expect(spy, `console.${name}`).toHaveBeenCalledTimes(name === method ? 1 : 0)
    }
    expect(JSON.parse(spies[method]?.mock.calls[0]?.[0] as string)).toEqual({
      level,
      message: "something happened",
      job: "a.job",
    })
  })
})
