/**
 * Every durable backoff slotwise keeps, side by side: pure functions of the count or delay stored
 * so far, so they survive restarts (in-process retry policies live in retry.ts).
 */

/** The longest a failed attempt waits for its retry. */
export const MAX_DURABLE_DELAY_MS = 60_000

/**
 * The durable backoff (ARCHITECTURE.md, "Retry") from the attempt count stored in the row: 1, 2, 4, ... 32, then 60 s.
 *
 * @example
 * ```ts
 * Retry.durableDelay(3) // 4000: the third failed attempt's retry waits 4 s
 * ```
 */
export function durableDelay(attempts: number): number {
  if (!(Number.isInteger(attempts) && attempts >= 1)) {
    throw new RangeError(`attempts must be an integer of at least 1, got ${attempts}`)
  }
  return Math.min(MAX_DURABLE_DELAY_MS, 1_000 * 2 ** (attempts - 1))
}

export const RECOVERY_FIRST_MS = 1_000
export const RECOVERY_MAX_MS = 60_000

/**
 * A stream's recovery alarm after a storage error: 1 s, then double the previous delay, at most 60 s.
 *
 * @example
 * ```ts
 * Retry.recoveryDelay(0) // 1000; Retry.recoveryDelay(40_000) // 60000
 * ```
 */
export const recoveryDelay = (previousMs: number): number =>
  previousMs > 0 ? Math.min(RECOVERY_MAX_MS, previousMs * 2) : RECOVERY_FIRST_MS
