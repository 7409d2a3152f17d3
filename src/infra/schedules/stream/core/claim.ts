import type { Delivery } from "../../contract/consumer.ts"
import { idempotencyKey } from "../idempotency-key.ts"
import { eligibleAt, type ScheduleRow } from "../row.ts"

/** What a tick selected; the claim rechecks it inside the transaction. */
export interface Selection {
  /** The schedule's id. */
  id: string
  /** The occurrence due, 1-based and kept through retries. */
  occurrence: number
  /** The occurrence's due time, in epoch milliseconds. */
  nextAt: number
  /** Attempts at this occurrence: those before it as the tick saw them; in a `Claim`, this one included. */
  attempts: number
}

/** A delivery claim: the row the tick selected, held for one attempt under a fresh token until its lease ends. */
export interface Claim extends Selection {
  /** The fresh claim token the settlement's fence checks. */
  token: string
  /** When the claim's lease ends, in epoch milliseconds: a lost claim comes back then. */
  claimUntil: number
}

/** True when the selected row is still eligible and still the same occurrence, as the tick saw it. */
export const stillSelected = (row: ScheduleRow | undefined, seen: Selection, now: number): row is ScheduleRow =>
  row?.state === "scheduled" &&
  eligibleAt(row) <= now &&
  row.occurrence === seen.occurrence &&
  row.nextAt === seen.nextAt &&
  row.attempts === seen.attempts

/** Claims a selected row for one attempt, if it is still eligible and still the same occurrence. */
export function claim(row: ScheduleRow | undefined, seen: Selection, now: number, token: string, leaseMs: number) {
  if (!stillSelected(row, seen, now) || attemptsSpent(row)) return undefined
  const claimed: ScheduleRow = {
    ...row,
    claimUntil: now + leaseMs,
    claimToken: token,
    attempts: row.attempts + 1,
    updatedAt: now,
  }
  const ticket: Claim = { ...seen, attempts: claimed.attempts, token, claimUntil: now + leaseMs }
  return { row: claimed, claim: ticket }
}

export const attemptsSpent = (row: ScheduleRow) => row.maxAttempts !== null && row.attempts >= row.maxAttempts

/** What a consumer is handed for a claimed row, its attempt starting at `startedAt`. */
export const deliveryOf = (stream: string, row: ScheduleRow, startedAt: number): Delivery => ({
  stream,
  scheduleId: row.id,
  occurrence: row.occurrence,
  dueAt: new Date(row.nextAt),
  attempt: row.attempts,
  lateByMs: Math.max(0, startedAt - row.nextAt),
  idempotencyKey: idempotencyKey(stream, row),
  payload: JSON.parse(row.payload),
})
