/** A unit a Duration string may name, singular or with an "s": "1 minute", "5 minutes". */
export type DurationUnit = "millisecond" | "second" | "minute" | "hour" | "day"

const UNIT_MS: Readonly<Record<DurationUnit, number>> = {
  millisecond: 1,
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
}

/** Milliseconds, or a string such as "1 second", "30 seconds", "5 minutes", "250 milliseconds". */
export type Duration = number | `${number} ${DurationUnit | `${DurationUnit}s`}`

const PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(millisecond|second|minute|hour|day)s?\s*$/

/** Returns the duration in whole milliseconds, or undefined when it is not a duration. */
export function toMillis(input: unknown): number | undefined {
  if (typeof input === "number") {
    return Number.isFinite(input) && input >= 0 ? Math.round(input) : undefined
  }
  if (typeof input !== "string") return undefined
  const match = PATTERN.exec(input)
  if (!match) return undefined
  const [, amount, unit] = match as unknown as [string, string, DurationUnit]
  return Math.round(Number(amount) * UNIT_MS[unit])
}

export const MINUTE_MS = UNIT_MS.minute
