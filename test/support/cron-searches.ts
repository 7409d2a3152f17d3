import { Cron } from "croner"
import { vi } from "vitest"

/**
 * How many times `act` searches for a day `cron` names (the costly check that a cron fires within
 * 10 years), counted as the calls asking croner for the next run of the cron's day pattern. The
 * test, the Worker and the stream objects share one isolate, so one spy sees every side.
 */
export async function cronSearches(cron: string, act: () => Promise<unknown>): Promise<number> {
  const dayPattern = `0 0 ${cron.trim().split(/\s+/).slice(2).join(" ")}`
  const nextRun = Cron.prototype.nextRun
  let searches = 0
  const spy = vi.spyOn(Cron.prototype, "nextRun").mockImplementation(function (this: Cron, ...args) {
    if (this.getPattern() === dayPattern) searches++
    return nextRun.apply(this, args)
  })
  try {
    await act()
  } finally {
    spy.mockRestore()
  }
  return searches
}
