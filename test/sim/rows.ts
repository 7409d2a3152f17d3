import { parseCron } from "../../src/infra/cron.ts"

/** A schedules row as SQLite holds it. */
export interface Row {
  id: string
  consumer: string
  kind: "at" | "after" | "every" | "cron"
  at_ms: number | null
  interval_ms: number | null
  cron: string | null
  timezone: string | null
  payload: string
  max_attempts: number | null
  state: "scheduled" | "completed" | "cancelled" | "failed"
  occurrence: number
  next_at: number
  cadence_at: number
  retry_at: number | null
  claim_until: number | null
  claim_token: string | null
  attempts: number
  last_error: string | null
  created_at: number
  updated_at: number
  finished_at: number | null
  incarnation: number | null
  start_at: number | null
  end_at: number | null
  times: number | null
  delivered: number
  jitter_ms: number | null
  cancel_reason: string | null
  backfill_of: string | null
  eligible_at: number
}

export interface Event {
  seq: number
  at: number
  schedule_id: string
  type: string
  data: Record<string, unknown>
}

/** ADR 0202's pacing, restated: 1 s doubling per attempt, capped at 60 s, no jitter. */
export const backoffMs = (attempts: number) => Math.min(60_000, 1_000 * 2 ** (attempts - 1))

export const eligibleOf = (row: Pick<Row, "next_at" | "retry_at" | "claim_until">) =>
  Math.max(row.next_at, row.retry_at ?? 0, row.claim_until ?? 0)

/** The key of a row's occurrence, as docs/schedules.md writes it: `schedule:<stream>/<id>@<incarnation>:<occurrence>`. */
export const keyOf = (stream: string, row: Pick<Row, "id" | "incarnation" | "occurrence">) =>
  `schedule:${stream}/${row.id}@${row.incarnation?.toString(16).padStart(12, "0")}:${row.occurrence}`

export const isRecurring = (row: Pick<Row, "kind">) => row.kind === "every" || row.kind === "cron"

/** docs/schedules.md's jitter, restated: FNV-1a (32 bits) of the occurrence's key, modulo the bound plus one. */
export function offsetOf(key: string, bound: number | null): number {
  return bound === null ? 0 : fnv(key) % (bound + 1)
}

/** FNV-1a, 32 bits, of an ASCII string. */
function fnv(text: string): number {
  let hash = 0x811c9dc5
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) as number), 0x01000193)
  return hash >>> 0
}

/**
 * When the occurrence `occurrence` of `row`, on the cadence at `cadence`, is delivered: its time plus its key's
 * offset, the bound short of the next cadence point (docs/limits.md: a DST day's short gap).
 */
export function jitteredAt(stream: string, row: Row, occurrence: number, cadence: number): number {
  if (row.jitter_ms === null) return cadence
  const next =
    row.kind === "every"
      ? cadence + (row.interval_ms as number)
      : row.kind === "cron"
        ? parseCron(row.cron as string, row.timezone as string).nextAfter(cadence)
        : undefined
  const bound = next === undefined ? row.jitter_ms : Math.min(row.jitter_ms, next - cadence - 1)
  return cadence + offsetOf(keyOf(stream, { ...row, occurrence }), bound)
}

/**
 * The first time on a timing's cadence seen from `now` with a window's start: startAt itself while ahead,
 * else the first cadence point after now (`every` counted from startAt); a cron's first time at or after it.
 */
export function firstCadence(
  t: { every: number } | { cron: string; timezone?: string } | { at: number } | { after: number },
  now: number,
  startAt: number | null,
): number {
  if ("at" in t) return t.at
  if ("after" in t) return now + t.after
  if ("every" in t) {
    if (startAt === null) return now + t.every
    if (startAt >= now) return startAt
    return startAt + (Math.floor((now - startAt) / t.every) + 1) * t.every
  }
  return parseCron(t.cron, t.timezone ?? "UTC").nextAfter(startAt === null ? now : Math.max(now, startAt - 1)) as number
}

/** True when an occurrence at `cadence` is past the row's window, or its count is reached. */
export const isOver = (row: Pick<Row, "end_at" | "times" | "delivered">, cadence: number) =>
  (row.end_at !== null && cadence > row.end_at) || (row.times !== null && row.delivered >= row.times)

export const sameRow = (a: Row | undefined, b: Row | undefined) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Where coalescing starts: a cadence point at or before it is missed. DESIGN.md: only points whose own due time
 * has passed are missed, so a point is missed only when its latest due time (cadence plus the jitter) is past.
 */
export const missedThrough = (row: Row, now: number) => Math.max(now - (row.jitter_ms ?? 0), row.cadence_at)

/** The first cadence point after the row's current one that is not missed (ADR 0202's coalescing). */
export function nextCadence(row: Row, now: number): number | undefined {
  const from = missedThrough(row, now)
  if (row.kind === "every") {
    const interval = row.interval_ms as number
    return row.cadence_at + (Math.floor((from - row.cadence_at) / interval) + 1) * interval
  }
  return parseCron(row.cron as string, row.timezone as string).nextAfter(from)
}

/**
 * Why `next` is not the occurrence after `row`'s on its cadence, seen at `now`; undefined when it is.
 * The next one is the first cadence point after the current one that is not missed (missedThrough).
 */
export function cadenceProblem(row: Row, now: number, next: number): string | undefined {
  const from = missedThrough(row, now)
  if (!(next > from)) return `next_at ${next} is not after ${from}`
  if (row.kind === "every") {
    const interval = row.interval_ms as number
    if ((next - row.cadence_at) % interval !== 0) return `next_at ${next} is off the ${interval} ms cadence`
    if (next - interval > from) return `next_at ${next} skips the slot at ${next - interval}`
    return undefined
  }
  const expected = parseCron(row.cron as string, row.timezone as string).nextAfter(from)
  return expected === next ? undefined : `next_at ${next} is not the cron's next time ${expected}`
}

/**
 * docs/limits.md's backfill id, restated: `<id>~backfill-<run>-<time>` when that is at most 128 characters, else the
 * id's first characters, `~`, the id's FNV-1a in 8 hex digits, then the same suffix, 128 in all.
 */
export function backfillIdOf(parent: string, run: number, at: number): string {
  const suffix = `~backfill-${run}-${at}`
  if (parent.length + suffix.length <= 128) return parent + suffix
  const tag = `~${fnv(parent).toString(16).padStart(8, "0")}`
  return `${parent.slice(0, 128 - tag.length - suffix.length)}${tag}${suffix}`
}
