import { durableDelay } from "../../../backoff.ts"
import { cutReason, type EventDraft, LATE_THRESHOLD_MS } from "../../contract/schedule-events.ts"
import { jittered } from "../jitter.ts"
import { isRecurring, type ScheduleRow } from "../row.ts"
import { finish, nextDue, over } from "./cadence.ts"
import { attemptsSpent, type Claim, type Selection, stillSelected } from "./claim.ts"
import { type Change, clearedAttempt, none, type Transition, unclaimed } from "./transition.ts"

/** A delivery's outcome; `lateByMs` is the one its Delivery carried. */
export type DeliveryResult =
  | { status: "delivered"; lateByMs: number }
  | { status: "retry"; reason: string }
  | { status: "terminal"; reason: string }

/** True when a result may still be written: same state, token, live lease, occurrence and due time. */
export const fenceHolds = (row: ScheduleRow | undefined, claim: Claim, now: number): row is ScheduleRow =>
  row !== undefined &&
  row.state === "scheduled" &&
  row.claimToken === claim.token &&
  row.claimUntil !== null &&
  row.claimUntil > now &&
  row.occurrence === claim.occurrence &&
  row.nextAt === claim.nextAt

/**
 * Settles an attempt on the row as stored now, so that timing, cadence and maxAttempts upserted
 * while it was out apply; a stale result (fence broken) writes nothing and emits nothing.
 */
export function settle(
  row: ScheduleRow | undefined,
  claim: Claim,
  result: DeliveryResult,
  now: number,
  stream = "",
): Transition {
  if (!fenceHolds(row, claim, now)) return none(row)
  const released = { ...row, ...unclaimed, updatedAt: now }
  const failed = (data: Record<string, unknown>): EventDraft => ({
    type: "schedule/failed",
    scheduleId: row.id,
    data: { occurrence: row.occurrence, attempts: row.attempts, ...data },
  })

  if (result.status === "delivered") {
    const lateByMs = result.lateByMs
    const next = advance(released, now, stream, true)
    const events: EventDraft[] = [
      {
        type: "schedule/fired",
        scheduleId: row.id,
        data: { occurrence: row.occurrence, attempt: row.attempts, lateByMs, nextAt: next.nextAt, state: next.state },
      },
    ]
    if (lateByMs > LATE_THRESHOLD_MS) {
      events.push({ type: "schedule/late", scheduleId: row.id, data: { occurrence: row.occurrence, lateByMs } })
    }
    return { row: next, events }
  }

  const reason = cutReason(result.reason)
  if (result.status === "terminal") {
    const stopped: ScheduleRow = { ...released, state: "failed", retryAt: null, lastError: reason, finishedAt: now }
    return { row: stopped, events: [failed({ terminal: true, reason })] }
  }

  if (attemptsSpent(row)) return exhaust(row, now, reason, stream)
  const retryAt = now + durableDelay(row.attempts)
  return { row: { ...released, retryAt, lastError: reason }, events: [failed({ retryAt, reason })] }
}

/** The occurrence used its maxAttempts: a recurring schedule skips to its next one, a one-shot fails. */
export function exhaust(row: ScheduleRow, now: number, reason: string, stream: string): Change {
  const released = { ...row, ...unclaimed, updatedAt: now }
  const failed = (data: Record<string, unknown>): EventDraft => ({
    type: "schedule/failed",
    scheduleId: row.id,
    data: { occurrence: row.occurrence, attempts: row.attempts, ...data },
  })
  if (isRecurring(row)) {
    const skipped = { ...advance(released, now, stream, false), lastError: reason }
    const ended = skipped.state === "completed" ? { state: "completed" } : {}
    return { row: skipped, events: [failed({ skipped: true, reason, nextAt: skipped.nextAt, ...ended })] }
  }
  const stopped: ScheduleRow = { ...released, state: "failed", retryAt: null, lastError: reason, finishedAt: now }
  return { row: stopped, events: [failed({ terminal: true, exhausted: true, reason })] }
}

/**
 * Moves past the current occurrence (`delivered`: it was delivered, and counts): the next one on the cadence,
 * or `completed` when there is none, the window ended or the count is reached.
 */
export function advance(row: ScheduleRow, now: number, stream: string, delivered: boolean): ScheduleRow {
  const counted = delivered ? { ...row, delivered: row.delivered + 1 } : row
  const due = isRecurring(row) ? nextDue(row, now) : undefined
  // A completed schedule keeps the occurrence it ended on: one started again goes on with the next.
  if (due === undefined || over(counted, due)) return finish(counted, now)
  const next = { ...counted, occurrence: row.occurrence + 1, ...clearedAttempt }
  return { ...next, cadenceAt: due, nextAt: jittered(stream, next, due) }
}

/**
 * A selected row whose last allowed attempt was claimed and lost (a crash, an eviction: no result
 * before its lease ended) is exhausted as a failed last attempt would be, never claimed again.
 */
export function expireLost(
  row: ScheduleRow | undefined,
  seen: Selection,
  now: number,
  stream = "",
): Change | undefined {
  if (!stillSelected(row, seen, now) || !attemptsSpent(row)) return undefined
  return exhaust(row, now, `attempt ${row.attempts} got no result before its lease ended`, stream)
}
