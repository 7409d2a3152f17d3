import { parseCron } from "../../cron.ts"
import { toMillis } from "../../duration.ts"
import { fail } from "./definition-error.ts"
import { toInstant } from "./instant.ts"
import { MAX_HORIZON_MS, MAX_JITTER_MS, MAX_TIMES } from "./limits.ts"
import type { Timing } from "./spec.ts"

const RECURRING_ONLY = "applies only to every and cron"

/** The window, count and jitter, checked against the timing: an end before the start, a window the cron never fires in. */
export function validateRules(def: Record<string, unknown>, timing: Timing, now: number) {
  const recurring = timing.kind === "every" || timing.kind === "cron"
  const instant = (field: "startAt" | "endAt"): number | null => {
    if (def[field] === undefined || def[field] === null) return null
    if (!recurring) fail(field, RECURRING_ONLY)
    const ms = toInstant(def[field])
    if (ms === undefined) fail(field, "must be a Date, epoch milliseconds or an ISO 8601 string with an offset")
    if ((ms as number) > now + MAX_HORIZON_MS) fail(field, "is more than 10 years ahead")
    return ms as number
  }
  const startAt = instant("startAt")
  const endAt = instant("endAt")
  if (startAt !== null && endAt !== null) {
    if (endAt < startAt) fail("endAt", `is before startAt (${new Date(startAt).toISOString()})`)
    if (timing.kind === "cron") {
      const first = parseCron(timing.cron, timing.timezone).nextAfter(startAt - 1)
      if (first === undefined || first > endAt) fail("endAt", "closes a window in which the cron names no time")
    }
  }
  let times: number | null = null
  if (def.times !== undefined && def.times !== null) {
    if (!recurring) fail("times", RECURRING_ONLY)
    const n = def.times
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_TIMES) {
      fail("times", `must be a positive integer up to ${MAX_TIMES}`)
    }
    times = n as number
  }
  let jitterMs: number | null = null
  if (def.jitter !== undefined && def.jitter !== null) {
    const ms = toMillis(def.jitter)
    if (ms === undefined) fail("jitter", 'must be milliseconds or a string such as "30 seconds"')
    if ((ms as number) > MAX_JITTER_MS) fail("jitter", "is more than a day")
    const gap = shortestGap(timing, Math.max(now, startAt ?? now))
    if (gap !== undefined && (ms as number) >= gap)
      fail("jitter", `must be shorter than the ${gap} ms between occurrences`)
    jitterMs = ms === 0 ? null : (ms as number)
  }
  return { startAt, endAt, times, jitterMs }
}

/** The shortest gap between a recurring timing's next occurrences (a cron's next 8 times), so jitter never reorders them. */
function shortestGap(timing: Timing, from: number): number | undefined {
  if (timing.kind === "every") return timing.everyMs
  if (timing.kind !== "cron") return undefined
  const cron = parseCron(timing.cron, timing.timezone)
  let gap: number | undefined
  let at = cron.nextAfter(from)
  for (let i = 0; i < 8 && at !== undefined; i++) {
    const next = cron.nextAfter(at)
    if (next !== undefined) gap = Math.min(gap ?? Number.POSITIVE_INFINITY, next - at)
    at = next
  }
  return gap
}
