import { parseCron } from "../../cron.ts"
import { idempotencyKey } from "./idempotency-key.ts"

/**
 * An occurrence's jitter offset, 0..jitterMs: FNV-1a of its idempotency key, so the same occurrence gets the
 * same offset after any restart, and schedules of one id in different streams (one per tenant) spread apart.
 */
export const jitterOffset = (key: string, jitterMs: number): number => fnv1a(key) % (jitterMs + 1)

/** FNV-1a (32 bits, unsigned) of a string's UTF-16 code units: stable across restarts, runtimes and versions. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/** The fields of a row that place its occurrence: its identity, its jitter and its cadence. */
export interface JitteredRow {
  id: string
  incarnation: number | null
  occurrence: number
  jitterMs: number | null
  kind: string
  intervalMs: number | null
  cron: string | null
  timezone: string | null
}

/**
 * The longest offset the occurrence on the cadence at `cadenceAt` may take: the jitter, but always short of the
 * next cadence point, so that occurrences are delivered in their order even on a day (a DST change) when a cron's
 * gap is shorter than the jitter validated against its next 8 gaps.
 */
export function jitterBound(row: JitteredRow, cadenceAt: number): number {
  const jitter = row.jitterMs ?? 0
  if (jitter === 0) return 0
  const next =
    row.kind === "every"
      ? cadenceAt + (row.intervalMs as number)
      : row.kind === "cron"
        ? parseCron(row.cron as string, row.timezone as string).nextAfter(cadenceAt)
        : undefined
  return next === undefined ? jitter : Math.min(jitter, next - cadenceAt - 1)
}

/** When an occurrence on the cadence at `cadenceAt` is delivered: its time plus its key's offset, if the row jitters. */
export const jittered = (stream: string, row: JitteredRow, cadenceAt: number) =>
  row.jitterMs === null ? cadenceAt : cadenceAt + jitterOffset(idempotencyKey(stream, row), jitterBound(row, cadenceAt))
