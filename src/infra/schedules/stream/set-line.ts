import type { Timing } from "../contract/spec.ts"

/**
 * A `schedule/set` event in short (schema version 8): `[seq, at, "s", cause, consumer, timing, occurrence,
 * nextAt - at]`, then, when the event says more (a window, a count, jitter, a completed state), an object of
 * the rest in their order. The timing is an array: its kind, then its values in the order of its type
 * (contract/definition.ts), an `at` instant as its distance from `at`. A pending one-shot's line is about 70
 * bytes where `[seq, at, type, data]` took 163: the stored bytes a schedule costs (docs/benchmarks.md).
 */

/** The fields the short form holds in place, in their order; any after them go, in order, into its last object. */
const PLACED = ["cause", "consumer", "timing", "occurrence", "nextAt"]

/** Each timing kind's values, in the order of its type. */
const VALUES: Readonly<Record<Timing["kind"], readonly string[]>> = {
  at: ["atMs"],
  after: ["afterMs"],
  every: ["everyMs"],
  cron: ["cron", "timezone"],
}

/** True when every field is where the short form puts it, and every number it moves is an integer. */
const fits = (data: Record<string, unknown>, keys: string[]) => {
  const timing = data.timing as Record<string, unknown> | null
  const names = typeof timing === "object" && timing !== null && Object.hasOwn(VALUES, timing.kind as string)
  const own = names ? Object.keys(timing) : []
  return (
    names &&
    ["kind", ...VALUES[timing.kind as Timing["kind"]]].join() === own.join() &&
    PLACED.every((name, i) => keys[i] === name) &&
    [data.occurrence, data.nextAt, timing.atMs ?? 0].every(Number.isSafeInteger)
  )
}

/** The short line of a set event's `data` numbered `seq` at `at`; undefined when its data has another shape. */
export function setLineOf(seq: number, at: number, data: Record<string, unknown>): string | undefined {
  const keys = Object.keys(data)
  if (!fits(data, keys)) return undefined
  const { kind, ...values } = data.timing as Record<string, unknown>
  if (kind === "at") values.atMs = (values.atMs as number) - at
  const line = [seq, at, "s", data.cause, data.consumer, [kind, ...Object.values(values)], data.occurrence]
  line.push((data.nextAt as number) - at)
  const rest = keys.slice(PLACED.length)
  if (rest.length > 0) line.push(Object.fromEntries(rest.map((key) => [key, data[key]])))
  return JSON.stringify(line)
}

/** The data of a short set line, from what follows its `"s"`, written at `at`. */
export function setOf(at: number, fields: readonly unknown[]): Record<string, unknown> {
  const [cause, consumer, [kind, ...values], occurrence, nextIn, rest] = fields as [
    string,
    string,
    [Timing["kind"], ...unknown[]],
    number,
    number,
    Record<string, unknown>?,
  ]
  const timing: Record<string, unknown> = { kind }
  for (const [i, name] of VALUES[kind].entries())
    timing[name] = name === "atMs" ? at + (values[i] as number) : values[i]
  return { cause, consumer, timing, occurrence, nextAt: at + nextIn, ...rest }
}
