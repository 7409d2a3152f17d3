import { CronSyntaxError, canonicalTimezone, isTimezone, parseCron } from "../../cron.ts"
import { describeValue } from "../../describe-value.ts"
import { type Duration, toMillis } from "../../duration.ts"
import { SCHEDULE_ADDRESS } from "./schedule-address.ts"
import { type ScheduleState, STATES } from "./states.ts"

/**
 * Stream names and schedule ids: URL-safe, so they travel in admin paths unescaped; "." and ".."
 * are not names, since URL parsing removes them as path segments (even sent as %2e%2e).
 */
export const NAME = /^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/
export const NAME_RULE = 'must match [A-Za-z0-9._~-]{1,128} and not be "." or ".."'
export const MAX_PAYLOAD_BYTES = 64 * 1024
/** Arrays and objects nest at most this deep in a payload. */
export const MAX_PAYLOAD_DEPTH = 64
export const MIN_EVERY_MS = 1_000
/** The furthest ahead a schedule may be set: 10 years. */
export const MAX_HORIZON_MS = 10 * 366 * 86_400_000
export const MAX_ATTEMPTS_LIMIT = 1_000
/** The most occurrences `times` may ask for. */
export const MAX_TIMES = 1_000_000
/** The widest `jitter`: a day. */
export const MAX_JITTER_MS = 86_400_000
/** The most occurrences one backfill delivers (docs/schedules.md, "Backfill"). */
export const MAX_BACKFILL = 1_000
/** A cancel's reason is cut to this many characters. */
export const MAX_NOTE_LENGTH = 1_000
/** A page of schedules or events: 1..LIST_MAX, LIST_DEFAULT when not given. */
export const LIST_DEFAULT = 50
export const LIST_MAX = 500
/** Finished schedules (completed, cancelled, failed) are kept this long after they finished, unless the stream says otherwise. */
export const DEFAULT_RETENTION_MS = 7 * 86_400_000
/** The longest retention window a stream may keep finished schedules for. */
export const MAX_RETENTION_MS = 366 * 86_400_000

/** Any JSON value: a schedule's payload. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** What a caller upserts: exactly one of at, after, every or cron. */
export interface ScheduleDefinition {
  /** The schedule's id, unique in its stream (NAME); upserting an id again replaces its definition. */
  id: string
  /** The name of the consumer that delivers it. */
  consumer: string
  /** Any JSON of at most 64 KiB and 64 levels, handed to each delivery. */
  payload?: Json
  /** Off by default (unset or null): retries continue, capped at 60 s apart, until success or terminal. */
  maxAttempts?: number | null
  /** Once, at this time: a Date, epoch milliseconds, or ISO 8601 with an offset. */
  at?: Date | number | string
  /** Once, this long after the upsert. */
  after?: Duration
  /** Again and again, this far apart (at least 1 second), the first one this far after the upsert. */
  every?: Duration
  /** On each minute a 5-field cron names, in `timezone`. */
  cron?: string
  /** IANA name for `cron`; default UTC. */
  timezone?: string
  /** `every` and `cron` only: nothing is delivered before this time (same forms as `at`); `every` counts its cadence from it. */
  startAt?: Date | number | string
  /** `every` and `cron` only: the schedule completes after its last occurrence at or before this time (same forms as `at`). */
  endAt?: Date | number | string
  /** `every` and `cron` only: the schedule completes once this many occurrences were delivered (1..1,000,000). */
  times?: number
  /**
   * Each occurrence is delivered up to this much after its time on the cadence, by an offset derived from its
   * idempotency key (the same after a restart); shorter than the gap between occurrences, at most a day.
   */
  jitter?: Duration
}

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

/** The input a ScheduleDefinitionError or a refused reply names: a definition's field, or a call's option. */
export type ScheduleField =
  | keyof ScheduleDefinition
  | "stream"
  | "timing"
  | "definition"
  | "limit"
  | "state"
  | "cursor"
  | "before"
  | "retention"
  | "range"
  | "reason"
  | "from"
  | "to"

const DEFINITION_FIELDS = new Set<string>([
  "id",
  "consumer",
  "payload",
  "maxAttempts",
  "at",
  "after",
  "every",
  "cron",
  "timezone",
  "startAt",
  "endAt",
  "times",
  "jitter",
])

/** A definition or an option a stream refused, naming the field: nothing was written. */
export class ScheduleDefinitionError extends Error {
  /** Always "ScheduleDefinitionError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "ScheduleDefinitionError"
  constructor(
    /** The input at fault. */
    readonly field: ScheduleField,
    problem: string,
  ) {
    super(`${field} ${problem}`)
  }
}

const fail = (field: ScheduleField, problem: string): never => {
  throw new ScheduleDefinitionError(field, problem)
}

export function assertName(field: "id" | "stream", value: unknown): string {
  if (typeof value !== "string" || !NAME.test(value)) fail(field, NAME_RULE)
  return value as string
}

/**
 * Validates a definition before anything is written; throws ScheduleDefinitionError naming
 * the field. `knownConsumer` answers whether a consumer of that name is declared.
 */
export function validateDefinition(
  input: unknown,
  now: number,
  knownConsumer: (name: string) => boolean,
): ScheduleSpec {
  return checkDefinition(input, now, knownConsumer).spec
}

/** A validated definition, and for a cron the day it was found to name within 10 years (its witness). */
export interface CheckedDefinition {
  spec: ScheduleSpec
  firesOn: number | undefined
}

/**
 * validateDefinition, answering also the cron's witness day; given a `firesOn` from an earlier check,
 * it verifies that one day instead of searching, and searches when the day does not verify.
 */
export function checkDefinition(
  input: unknown,
  now: number,
  knownConsumer: (name: string) => boolean,
  firesOn?: unknown,
): CheckedDefinition {
  if (typeof input !== "object" || input === null || Array.isArray(input)) fail("definition", "must be an object")
  const def = input as Record<string, unknown>
  // A misspelt option (maxAttempt, timeZone) would otherwise be dropped without a word.
  const unknown = Object.keys(def).find((key) => def[key] !== undefined && !DEFINITION_FIELDS.has(key))
  if (unknown !== undefined) fail("definition", `has an unknown field "${unknown}"`)
  const id = assertName("id", def.id)
  if (typeof def.consumer !== "string" || !knownConsumer(def.consumer)) {
    fail("consumer", `${describeValue(def.consumer)} is not among the consumers given to \`Schedules.durableObject\``)
  }
  const { timing, day } = validateTiming(def, now, firesOn)
  const payload = encodePayload(def.payload)
  let maxAttempts: number | null = null
  if (def.maxAttempts !== undefined && def.maxAttempts !== null) {
    const n = def.maxAttempts
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_ATTEMPTS_LIMIT) {
      fail("maxAttempts", `must be a positive integer up to ${MAX_ATTEMPTS_LIMIT}`)
    }
    maxAttempts = n as number
  }
  const rules = validateRules(def, timing, now)
  return { spec: { id, consumer: def.consumer as string, payload, maxAttempts, timing, ...rules }, firesOn: day }
}

const RECURRING_ONLY = "applies only to every and cron"

/** The window, count and jitter, checked against the timing: an end before the start, a window the cron never fires in. */
function validateRules(def: Record<string, unknown>, timing: Timing, now: number) {
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

/** A backfill's range: `from` and `to` in any form `at` takes, `from` at or before `to`, `to` not after `now`. */
export function validateBackfillRange(input: unknown, now: number): { from: number; to: number } {
  if (typeof input !== "object" || input === null) fail("range", "must be an object with from and to")
  const { from, to } = input as { from?: unknown; to?: unknown }
  const fromMs = toInstant(from)
  if (fromMs === undefined) fail("from", "must be a Date, epoch milliseconds or an ISO 8601 string with an offset")
  const toMs = toInstant(to)
  if (toMs === undefined) fail("to", "must be a Date, epoch milliseconds or an ISO 8601 string with an offset")
  if ((toMs as number) < (fromMs as number)) fail("to", `is before from (${new Date(fromMs as number).toISOString()})`)
  if ((toMs as number) > now) fail("to", "is in the future: a backfill delivers past occurrences only")
  return { from: fromMs as number, to: toMs as number }
}

/** A cancel's optional reason: a string, cut to MAX_NOTE_LENGTH; empty or absent is none. */
export function validateReason(reason: unknown): string | null {
  if (reason === undefined || reason === null || reason === "") return null
  if (typeof reason !== "string") fail("reason", "must be a string")
  const text = reason as string
  return text.length > MAX_NOTE_LENGTH ? `${text.slice(0, MAX_NOTE_LENGTH - 1)}…` : text
}

function validateTiming(def: Record<string, unknown>, now: number, firesOn: unknown): { timing: Timing; day?: number } {
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

const ISO_WITH_OFFSET =
  /^(?<y>\d{4})-(?<mo>\d{2})-(?<d>\d{2})T(?<h>\d{2}):(?<mi>\d{2})(?::(?<s>\d{2})(?:\.(?<f>\d{1,3}))?)?(?:Z|(?<sign>[+-])(?<oh>\d{2}):(?<om>\d{2}))$/

/** Epoch milliseconds from 1970 on, whichever form `at` came in: one rule for all three. */
function toInstant(value: unknown): number | undefined {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === "number"
        ? value
        : typeof value === "string"
          ? parseIso(value)
          : undefined
  return ms !== undefined && Number.isSafeInteger(ms) && ms >= 0 ? ms : undefined
}

/** An ISO 8601 time with an offset, strictly: the runtime's Date.parse moves February 30th to March 2nd. */
function parseIso(text: string): number | undefined {
  const { y, mo, d, h, mi, s = "00", f = "", sign, oh = "00", om = "00" } = ISO_WITH_OFFSET.exec(text)?.groups ?? {}
  if (y === undefined || Number(oh) > 23 || Number(om) > 59) return undefined
  const local = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(f.padEnd(3, "0")),
  )
  // The round trip: a field out of range (day 30 of February, hour 24, second 60) comes back changed.
  if (new Date(local).toISOString().slice(0, 19) !== `${y}-${mo}-${d}T${h}:${mi}:${s}`) return undefined
  return local - (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000
}

/** A page size: LIST_DEFAULT when absent, else an integer 1..LIST_MAX. */
function pageLimit(limit: unknown): number {
  if (limit === undefined) return LIST_DEFAULT
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) {
    fail("limit", `must be an integer from 1 to ${LIST_MAX}`)
  }
  return limit as number
}

/** A page of a stream's schedules: in one state, at most `limit`, after the id `cursor`. */
export interface ListOptions {
  /** Only schedules in this state; all when unset. */
  state?: ScheduleState
  /** At most this many (1..500, default 50). */
  limit?: number
  /** The id after which the page starts: the previous page's `cursor`. */
  cursor?: string
}

/** A list call's options, checked: a known state, a page size, a cursor that is a schedule id. */
export function validateListOptions(options: ListOptions): Required<Pick<ListOptions, "limit">> & ListOptions {
  if (options.state !== undefined && !STATES.includes(options.state))
    fail("state", `must be one of ${STATES.join(", ")}`)
  if (options.cursor !== undefined && !(typeof options.cursor === "string" && SCHEDULE_ADDRESS.test(options.cursor))) {
    fail("cursor", "is not a schedule id")
  }
  return { ...options, limit: pageLimit(options.limit) }
}

/** A page of a stream's event log, newest first: of one schedule, at most `limit`, before the event `before`. */
export interface EventsOptions {
  /** Only this schedule's events; every schedule's when unset. */
  scheduleId?: string
  /** At most this many (1..500, default 50). */
  limit?: number
  /** Only events older than this seq: the last seq of the previous page. */
  before?: number
}

/** An events call's options, checked: a schedule id, a page size, an event seq to page before. */
export function validateEventsOptions(options: EventsOptions): Required<Pick<EventsOptions, "limit">> & EventsOptions {
  // A backfill row 0.2.0 named past 128 characters is still addressable (schedule-address.ts).
  if (
    options.scheduleId !== undefined &&
    !(typeof options.scheduleId === "string" && SCHEDULE_ADDRESS.test(options.scheduleId))
  )
    fail("id", NAME_RULE)
  if (options.before !== undefined && !(Number.isSafeInteger(options.before) && options.before > 0)) {
    fail("before", "must be an event seq, a positive integer")
  }
  return { ...options, limit: pageLimit(options.limit) }
}

/** A stream's retention window in milliseconds: 0 (keep no finished schedule) up to MAX_RETENTION_MS. */
export function validateRetention(value: unknown): number {
  const ms = toMillis(value)
  if (ms === undefined || ms > MAX_RETENTION_MS) {
    fail("retention", 'must be milliseconds or a string such as "7 days", from 0 up to 366 days')
  }
  return ms as number
}

/** JSON text of the payload; refuses what JSON cannot carry unchanged, nesting past the limit, and more than 64 KiB. */
export function encodePayload(payload: unknown): string {
  if (payload === undefined) return "null"
  // Before JSON.stringify and any structured clone, both of which recurse.
  const problem = jsonProblem(payload)
  if (problem) fail("payload", problem)
  const text = JSON.stringify(payload)
  if (new TextEncoder().encode(text).byteLength > MAX_PAYLOAD_BYTES) fail("payload", "is over 64 KiB as JSON")
  return text
}

interface Open {
  container: object
  entries: Array<[string, unknown]>
  next: number
}

/** Depth first without recursion, so no payload can overflow the stack; `path` holds the open containers. */
function jsonProblem(payload: unknown): string | undefined {
  const path: Open[] = []
  const where = () =>
    path.reduce((label, { container, entries, next }) => {
      const key = entries[next - 1]?.[0]
      return Array.isArray(container) ? `${label}[${key}]` : `${label}.${key}`
    }, "payload")
  let value = payload
  // Every value is at least one byte of JSON: a walk longer than that is over the size limit (shared references included).
  for (let walked = 0; walked <= MAX_PAYLOAD_BYTES; walked++) {
    const problem = scalarProblem(value)
    if (problem) return `is not JSON: ${where()} ${problem}`
    if (typeof value === "object" && value !== null) {
      if (path.some((open) => open.container === value)) return `is not JSON: ${where()} is circular`
      if (path.length === MAX_PAYLOAD_DEPTH) return `nests deeper than ${MAX_PAYLOAD_DEPTH} levels at ${where()}`
      path.push({ container: value, entries: Object.entries(value), next: 0 })
    }
    let open = path.at(-1)
    while (open && open.next === open.entries.length) {
      path.pop()
      open = path.at(-1)
    }
    if (!open) return undefined
    value = (open.entries[open.next++] as [string, unknown])[1]
  }
  return "is over 64 KiB as JSON"
}

/** What keeps one value (not its contents) out of JSON, if anything. */
function scalarProblem(value: unknown): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `is ${value}`
  if (typeof value !== "object") return `is a ${typeof value}`
  const proto = Object.getPrototypeOf(value)
  if (Array.isArray(value) || proto === Object.prototype || proto === null) return undefined
  return `is a ${value.constructor?.name ?? "non-plain object"}`
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
