import { idempotencyKey } from "./idempotency-key.ts"

/**
 * An occurrence's jitter offset, 0..jitterMs: FNV-1a of its idempotency key, so the same occurrence gets the
 * same offset after any restart, and schedules of one id in different streams (one per tenant) spread apart.
 */
export function jitterOffset(key: string, jitterMs: number): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % (jitterMs + 1)
}

/** When an occurrence on the cadence at `cadenceAt` is delivered: its time plus its key's offset, if the row jitters. */
export const jittered = (
  stream: string,
  row: { id: string; incarnation: number | null; occurrence: number; jitterMs: number | null },
  cadenceAt: number,
) => (row.jitterMs === null ? cadenceAt : cadenceAt + jitterOffset(idempotencyKey(stream, row), row.jitterMs))
