import type { Timing } from "../contract/definition.ts"

/**
 * A `schedule/set` event in short (schema version 8): `[seq, at, "s", cause, consumer, timing, occurrence,
 * nextAt - at]`, then, when the event says more (a window, a count, jitter, a completed state), an object of
 * the rest in their order. The timing is an array: its kind, then its values in the order of its type
 * (contract/definition.ts), an `at` instant as its distance from `at`. A pending one-shot's line is about 70
 * bytes where `[seq, at, type, data]` took 163: the stored bytes a schedule costs (docs/benchmarks.md).
 */

/** The fields the short form holds in place, in their order; any after them go, in order, into its last object. */
const PLACED = ["cause", "consumer", "timing", "occurrence", "nextAt"] as const

/** Each timing kind's values, in the order of its type. */
const VALUES: Readonly<Record<Timing["kind"], readonly string[]>> = {
  at: ["atMs"],
  after: ["afterMs"],
  every: ["everyMs"],
  cron: ["cron", "timezone"],
}

/** The timing as an array, or undefined when it is not one of the four shapes exactly. */
function timingLine(timing: unknown, at: number): unknown[] | undefined {
  if (typeof timing !== "object" || timing === null) return undefined
  const { kind } = timing as { kind?: unknown }
  const names = typeof kind === "string" && Object.hasOwn(VALUES, kind) ? VALUES[kind as Timing["kind"]] : undefined
  const keys = Object.keys(timing)
  if (!names || keys.length !== names.length + 1 || keys[0] !== "kind") return undefined
  const values: unknown[] = [kind]
  for (const [i, name] of names.entries()) {
    const value = (timing as Record<string, unknown>)[name]
    if (keys[i + 1] !== name) return undefined
    if (name === "cron" || name === "timezone" ? typeof value !== "string" : !Number.isSafeInteger(value))
      return undefined
    values.push(name === "atMs" ? (value as number) - at : value)
  }
  return values
}

/** The short line of a set event's `data` numbered `seq` at `at`; undefined when its data has another shape. */
export function setLineOf(seq: number, at: number, data: Record<string, unknown>): string | undefined {
  const keys = Object.keys(data)
  if (keys.length < PLACED.length || PLACED.some((name, i) => keys[i] !== name)) return undefined
  const { cause, consumer, timing, occurrence, nextAt } = data
  const line = timingLine(timing, at)
  if (typeof cause !== "string" || typeof consumer !== "string" || !line) return undefined
  if (!Number.isSafeInteger(occurrence) || !Number.isSafeInteger(nextAt)) return undefined
  const placed = [seq, at, "s", cause, consumer, line, occurrence, (nextAt as number) - at]
  if (keys.length === PLACED.length) return JSON.stringify(placed)
  const rest: Record<string, unknown> = {}
  for (const key of keys.slice(PLACED.length)) rest[key] = data[key]
  return JSON.stringify([...placed, rest])
}

/** The data of a short set line, from what follows its `"s"`, written at `at`. */
export function setOf(at: number, fields: readonly unknown[]): Record<string, unknown> {
  const [cause, consumer, line, occurrence, nextIn, rest] = fields as [
    string,
    string,
    unknown[],
    number,
    number,
    Record<string, unknown> | undefined,
  ]
  const [kind, ...values] = line as [Timing["kind"], ...unknown[]]
  const timing: Record<string, unknown> = { kind }
  for (const [i, name] of VALUES[kind].entries())
    timing[name] = name === "atMs" ? at + (values[i] as number) : values[i]
  return { cause, consumer, timing, occurrence, nextAt: at + nextIn, ...rest }
}
