import { Cron, CronPattern } from "croner"

/** A parsed 5-field cron expression; the one place slotwise asks croner anything. */
export interface CronSchedule {
  /** The expression as given: "0 3 * * *". */
  readonly pattern: string
  /** The IANA timezone its fields are read in: "UTC" unless given. */
  readonly timezone: string
  /** The same for two patterns that name the same minutes ("0 9 * * 1-5" and " 0 09 * * MON-FRI"). */
  readonly key: string
  /** True when the minute starting at `minuteMs` is one the expression names. */
  matches(minuteMs: number): boolean
  /** The first time the expression names strictly after `afterMs`, or undefined if none. */
  nextAfter(afterMs: number): number | undefined
  /**
   * A day within `horizonMs` after `afterMs` that the expression names (its midnight), or undefined.
   * Cheap: it searches days without the timezone (a day of the calendar exists in every zone), so a
   * cron that never fires costs a few milliseconds, not the zone-by-zone walk of nextAfter.
   */
  dayWithin(afterMs: number, horizonMs: number): number | undefined
  /** True when `dayMs` is a day dayWithin could answer for the same window: checking one needs no search. */
  isDayWithin(dayMs: unknown, afterMs: number, horizonMs: number): boolean
  /** The latest `count` times the expression names strictly before `beforeMs`, newest first. */
  previousBefore(beforeMs: number, count: number): number[]
  /** The times the expression names in the hour starting at `hourMs` (a UTC hour's first millisecond), in order. */
  slotsIn(hourMs: number): number[]
  /** The minutes of a day (0..1439) its minute and hour fields name, whatever its day fields say. */
  minutesOfDay(): number[]
}

const DAY_MS = 86_400_000

/** A day's midnight may fall a day before `afterMs` in the expression's zone: a day's slack either side. */
const inWindow = (dayMs: number, afterMs: number, horizonMs: number) =>
  dayMs > afterMs - DAY_MS && dayMs <= afterMs + horizonMs + DAY_MS

export class CronSyntaxError extends Error {
  override name = "CronSyntaxError"
}

/** Parses a 5-field cron (minute granularity) in an IANA timezone; throws CronSyntaxError. */
export function parseCron(pattern: string, timezone = "UTC"): CronSchedule {
  if (typeof pattern !== "string") throw new CronSyntaxError("must be a string of 5 fields")
  const fields = pattern.trim().split(/\s+/)
  if (fields.length === 6) {
    throw new CronSyntaxError(`"${pattern}" has a seconds field; use 5 fields (minute granularity)`)
  }
  if (fields.length !== 5) {
    throw new CronSyntaxError(`"${pattern}" must have exactly 5 fields, found ${fields.length}`)
  }
  let cron: Cron
  try {
    cron = new Cron(pattern, { mode: "5-part", timezone, paused: true })
  } catch (error) {
    throw new CronSyntaxError(`"${pattern}" is not a valid cron: ${(error as Error).message}`)
  }
  // Midnight of each day the expression names, in the runtime's own zone (UTC on Workers).
  let hourMinutes: number[] | undefined
  const days = () => new Cron(`0 0 ${fields.slice(2).join(" ")}`, { mode: "5-part", paused: true })
  return {
    pattern,
    timezone,
    get key() {
      return patternKey(pattern)
    },
    matches: (minuteMs) => cron.match(new Date(minuteMs)),
    nextAfter: (afterMs) => cron.nextRun(new Date(afterMs))?.getTime(),
    dayWithin: (afterMs, horizonMs) => {
      const day = days()
        .nextRun(new Date(afterMs - DAY_MS))
        ?.getTime()
      return day !== undefined && inWindow(day, afterMs, horizonMs) ? day : undefined
    },
    isDayWithin: (dayMs, afterMs, horizonMs) =>
      Number.isSafeInteger(dayMs) &&
      inWindow(dayMs as number, afterMs, horizonMs) &&
      days().match(new Date(dayMs as number)),
    previousBefore: (beforeMs, count) => cron.previousRuns(count, new Date(beforeMs)).map((time) => time.getTime()),
    minutesOfDay: () => {
      const { minute, hour } = new CronPattern(pattern, undefined, { mode: "5-part" })
      return hour.flatMap((inHour, h) => (inHour ? minute.flatMap((on, m) => (on ? [h * 60 + m] : [])) : []))
    },
    slotsIn: (hourMs) => {
      hourMinutes ??= minutesOf(pattern)
      const minutes = hourMinutes.map((minute) => hourMs + minute * 60_000)
      // In UTC the hour and day fields hold for the whole hour: one match answers for every minute.
      if (timezone === "UTC") return minutes.length > 0 && cron.match(new Date(minutes[0] as number)) ? minutes : []
      return minutes.filter((time) => cron.match(new Date(time)))
    },
  }
}

/** The minutes of an hour the expression's minute field names. */
const minutesOf = (pattern: string): number[] =>
  new CronPattern(pattern, undefined, { mode: "5-part" }).minute.flatMap((on, minute) => (on ? [minute] : []))

/** croner's parsed fields: what the pattern means, whatever its spelling. */
function patternKey(pattern: string): string {
  const p = new CronPattern(pattern, undefined, { mode: "5-part" })
  return JSON.stringify([
    p.minute,
    p.hour,
    p.day,
    p.month,
    p.dayOfWeek,
    p.lastDayOfMonth,
    p.lastWeekday,
    p.nearestWeekdays,
    p.starDOM,
    p.starDOW,
    p.useAndLogic,
    p.isFixedTime,
  ])
}

/** The runtime's canonical name of an IANA timezone: "Etc/UTC" is "UTC", "europe/berlin" is "Europe/Berlin". */
export const canonicalTimezone = (timezone: string): string =>
  new Intl.DateTimeFormat("en-US", { timeZone: timezone }).resolvedOptions().timeZone

/** A fixed UTC offset ("+01:00", "-0530"), which Intl and croner accept as a zone but which is no IANA name. */
const OFFSET = /^[+-]/

/** True when `timezone` is an IANA name the runtime knows (a fixed offset such as "+01:00" is not). */
export function isTimezone(timezone: string): boolean {
  if (typeof timezone !== "string" || OFFSET.test(timezone.trim())) return false
  try {
    return !OFFSET.test(canonicalTimezone(timezone))
  } catch {
    return false
  }
}
