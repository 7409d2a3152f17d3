import { CronSyntaxError, canonicalTimezone, isTimezone, parseCron } from "../../cron.ts"
import { describeValue } from "../../describe-value.ts"
import { toMillis } from "../../duration.ts"
import { fail } from "./definition-error.ts"
import { toInstant } from "./instant.ts"
import { MAX_HORIZON_MS, MIN_EVERY_MS } from "./limits.ts"
import type { Timing } from "./spec.ts"

export function validateTiming(
  def: Record<string, unknown>,
  now: number,
  firesOn: unknown,
): { timing: Timing; day?: number } {
  const given = (["at", "after", "every", "cron"] as const).filter((key) => def[key] !== undefined)
  if (given.length !== 1) {
    fail(
      "timing",
      given.length === 0
        ? "is missing: give one of at, after, every or cron"
        : `must be one of at, after, every or cron, got ${given.join(" and ")}`,
    )
  }
  if (def.timezone !== undefined && given[0] !== "cron") fail("timezone", "applies only to cron")
  switch (given[0]) {
    case "at": {
      const atMs = toInstant(def.at)
      if (atMs === undefined) fail("at", "must be a Date, epoch milliseconds or an ISO 8601 string with an offset")
      if ((atMs as number) > now + MAX_HORIZON_MS) fail("at", "is more than 10 years ahead")
      return { timing: { kind: "at", atMs: atMs as number } }
    }
    case "after": {
      const afterMs = toMillis(def.after)
      if (afterMs === undefined) fail("after", 'must be milliseconds or a string such as "10 minutes"')
      if ((afterMs as number) > MAX_HORIZON_MS) fail("after", "is more than 10 years")
      return { timing: { kind: "after", afterMs: afterMs as number } }
    }
    case "every": {
      const everyMs = toMillis(def.every)
      if (everyMs === undefined) fail("every", 'must be milliseconds or a string such as "1 hour"')
      if ((everyMs as number) < MIN_EVERY_MS) fail("every", "must be at least 1 second")
      if ((everyMs as number) > MAX_HORIZON_MS) fail("every", "is more than 10 years")
      return { timing: { kind: "every", everyMs: everyMs as number } }
    }
    default: {
      const timezone = def.timezone === undefined ? "UTC" : def.timezone
      if (typeof timezone !== "string" || !isTimezone(timezone))
        fail(
          "timezone",
          `${describeValue(timezone)} is not an IANA timezone name (a fixed offset such as "+01:00" is not one)`,
        )
      if (typeof def.cron !== "string") fail("cron", "must be a string of 5 fields")
      let day: number | undefined
      try {
        const schedule = parseCron(def.cron as string, timezone as string)
        day = schedule.isDayWithin(firesOn, now, MAX_HORIZON_MS)
          ? (firesOn as number)
          : schedule.dayWithin(now, MAX_HORIZON_MS)
      } catch (error) {
        if (error instanceof CronSyntaxError) fail("cron", error.message)
        throw error
      }
      if (day === undefined) fail("cron", "names no time within the next 10 years")
      const cron = (def.cron as string).trim().split(/\s+/).join(" ")
      return { timing: { kind: "cron", cron, timezone: canonicalTimezone(timezone as string) }, day }
    }
  }
}
