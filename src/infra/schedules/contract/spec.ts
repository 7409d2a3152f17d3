import { canonicalTimezone, parseCron } from "../../cron.ts"

/** Any JSON value: a schedule's payload. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** When a schedule is due, as the stream stores and admin shows it: one of the four timings, in milliseconds. */
export type Timing =
  | { kind: "at"; atMs: number }
  | { kind: "after"; afterMs: number }
  | { kind: "every"; everyMs: number }
  | { kind: "cron"; cron: string; timezone: string }

/** A validated definition, as the stream stores it. */
export interface ScheduleSpec {
  id: string
  consumer: string
  payload: string
  maxAttempts: number | null
  timing: Timing
  /** The window's start and end (epoch ms), recurring timings only. */
  startAt: number | null
  endAt: number | null
  /** How many occurrences are delivered before the schedule completes. */
  times: number | null
  /** The jitter's bound in ms (null: none). */
  jitterMs: number | null
}

/** True when two specs describe the same schedule: upserting it again changes nothing. */
export const sameSpec = (a: ScheduleSpec, b: ScheduleSpec) =>
  a.consumer === b.consumer &&
  a.payload === b.payload &&
  a.maxAttempts === b.maxAttempts &&
  a.times === b.times &&
  sameWhen(a, b)

/** The same timing, window and jitter: an upsert that keeps them keeps the due time. */
export const sameWhen = (a: ScheduleSpec, b: ScheduleSpec) =>
  a.startAt === b.startAt && a.endAt === b.endAt && a.jitterMs === b.jitterMs && sameTiming(a.timing, b.timing)

/** Compared as they behave, not as they are written: croner's parsed pattern, the canonical zone. */
export function sameTiming(a: Timing, b: Timing): boolean {
  if (a.kind !== "cron" || b.kind !== "cron") return JSON.stringify(a) === JSON.stringify(b)
  return (
    canonicalTimezone(a.timezone) === canonicalTimezone(b.timezone) &&
    (a.cron === b.cron || parseCron(a.cron).key === parseCron(b.cron).key)
  )
}
