import { durableDelay } from "../../backoff.ts"
import { parseCron } from "../../cron.ts"
import type { Delivery } from "../contract/consumer.ts"
import { cutReason, type EventDraft, LATE_THRESHOLD_MS } from "../contract/schedule-events.ts"
import { type ScheduleSpec, sameSpec, sameWhen, type Timing } from "../contract/spec.ts"
import { idempotencyKey } from "./idempotency-key.ts"
import { jittered } from "./jitter.ts"
import { eligibleAt, isRecurring, type ScheduleRow, specOf, timingColumns } from "./row.ts"

/** A pure transition's result: the row to write (or delete) and the events to append with it. */
export interface Change {
  row: ScheduleRow
  events: EventDraft[]
  /** The row goes: `row` is what it was. */
  removed?: true
}

/** A transition that writes nothing, with the reason when the caller asked for something refused. */
export interface NoChange {
  row: ScheduleRow | undefined
  events: []
  refused?: string
}

export type Transition = Change | NoChange

const none = (row: ScheduleRow | undefined, refused?: string): NoChange =>
  refused === undefined ? { row, events: [] } : { row, events: [], refused }

export const changed = (t: Transition): t is Change => t.events.length > 0

/**
 * When the first occurrence of a timing is due on its cadence, seen from `now`. With a window's `startAt`,
 * `every` counts its cadence from startAt and a cron's first time is at or after it: startAt itself when it
 * is still ahead, otherwise the first cadence point after now.
 */
export function firstDue(timing: Timing, now: number, startAt: number | null = null): number {
  switch (timing.kind) {
    case "at":
      return timing.atMs
    case "after":
      return now + timing.afterMs
    case "every": {
      if (startAt === null) return now + timing.everyMs
      if (startAt >= now) return startAt
      return startAt + (Math.floor((now - startAt) / timing.everyMs) + 1) * timing.everyMs
    }
    case "cron": {
      const from = startAt === null ? now : Math.max(now, startAt - 1)
      const next = parseCron(timing.cron, timing.timezone).nextAfter(from)
      // validateDefinition refuses a cron that never fires, so this is a broken invariant.
      if (next === undefined) throw new RangeError(`cron "${timing.cron}" never fires after ${now}`)
      return next
    }
  }
}

/**
 * The occurrence after `row`'s, coalescing missed slots onto the original cadence: the first cadence point after
 * the current one that is not missed. A point is missed only when even the latest due time its jitter allows
 * (its cadence plus the jitter's bound) has passed, so a consumer answering within the gap loses none, jittered
 * or not, and a stream that was down skips what it owed meanwhile. `every` is O(1) arithmetic.
 */
export function nextDue(row: ScheduleRow, now: number): number | undefined {
  const from = Math.max(now - (row.jitterMs ?? 0), row.cadenceAt)
  if (row.kind === "every") {
    const interval = row.intervalMs as number
    return row.cadenceAt + (Math.floor((from - row.cadenceAt) / interval) + 1) * interval
  }
  return parseCron(row.cron as string, row.timezone as string).nextAfter(from)
}

/** True when an occurrence at `cadence` is not delivered: past the window's end, or the count is reached. */
const over = (row: ScheduleRow, cadence: number) =>
  (row.endAt !== null && cadence > row.endAt) || (row.times !== null && row.delivered >= row.times)

/** The row finished as completed at `now`: no claim, no retry. */
const finish = (row: ScheduleRow, now: number): ScheduleRow => ({
  ...row,
  state: "completed",
  ...clearedAttempt,
  ...unclaimed,
  finishedAt: now,
})

/** The row's current occurrence put at `cadence`, due then plus its jitter; completed instead when it is over. */
function placed(row: ScheduleRow, cadence: number, now: number, stream: string): ScheduleRow {
  const at = { ...row, cadenceAt: cadence, nextAt: jittered(stream, row, cadence) }
  return over(row, cadence) ? finish(at, now) : at
}

/**
 * Idempotent upsert: the same definition changes nothing; a new timing, window or jitter recomputes next_at.
 * A created row takes `incarnation` (drawn by the caller, fresh each time); an existing row keeps its own,
 * and its count of delivered occurrences: an upsert whose `times` it already reached completes it.
 */
export function upsert(
  existing: ScheduleRow | undefined,
  spec: ScheduleSpec,
  now: number,
  incarnation: number,
  stream = "",
): Transition {
  const columns = {
    consumer: spec.consumer,
    payload: spec.payload,
    maxAttempts: spec.maxAttempts,
    ...timingColumns(spec.timing),
    startAt: spec.startAt,
    endAt: spec.endAt,
    times: spec.times,
    jitterMs: spec.jitterMs,
  }
  const setEvent = (row: ScheduleRow, cause: string): EventDraft => ({
    type: "schedule/set",
    scheduleId: row.id,
    data: {
      cause,
      consumer: row.consumer,
      timing: spec.timing,
      occurrence: row.occurrence,
      nextAt: row.nextAt,
      ...rulesOf(spec),
      ...(row.state === "completed" ? { state: "completed", delivered: row.delivered } : {}),
    },
  })
  const due = () => firstDue(spec.timing, now, spec.startAt)
  if (!existing) {
    const created: ScheduleRow = {
      id: spec.id,
      ...columns,
      state: "scheduled",
      occurrence: 1,
      nextAt: 0,
      cadenceAt: 0,
      retryAt: null,
      ...unclaimed,
      attempts: 0,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      incarnation,
      delivered: 0,
      cancelReason: null,
      backfillOf: null,
    }
    const row = placed(created, due(), now, stream)
    return { row, events: [setEvent(row, "created")] }
  }
  const counted = spec.times !== null && existing.delivered >= spec.times
  if (existing.state !== "scheduled") {
    const restarted = placed(
      {
        ...existing,
        ...columns,
        state: "scheduled",
        // A delivered one-shot starts a new occurrence, so its key is not deduped away.
        occurrence: existing.state === "completed" ? existing.occurrence + 1 : existing.occurrence,
        ...clearedAttempt,
        ...withdrawn(existing, now),
        updatedAt: now,
        finishedAt: null,
        cancelReason: null,
      },
      due(),
      now,
      stream,
    )
    if (restarted.state === "scheduled") return { row: restarted, events: [setEvent(restarted, "restarted")] }
    // Over at once (its count reached, its window ended): it stays where it was, or completes, as it is.
    if (existing.state === "completed" && sameSpec(specOf(existing), spec)) return none(existing)
    const finishedAt = existing.state === "completed" ? existing.finishedAt : now
    const row = { ...finish({ ...existing, ...columns, updatedAt: now, cancelReason: null }, now), finishedAt }
    return { row, events: [setEvent(row, "completed")] }
  }
  if (sameSpec(specOf(existing), spec)) return none(existing)
  if (counted) {
    const row = finish({ ...existing, ...columns, updatedAt: now }, now)
    return { row, events: [setEvent(row, "completed")] }
  }
  if (sameWhen(specOf(existing), spec)) {
    // The timing stays as first written: another spelling of it is no change.
    const row = {
      ...existing,
      consumer: spec.consumer,
      payload: spec.payload,
      maxAttempts: spec.maxAttempts,
      times: spec.times,
      updatedAt: now,
    }
    return { row, events: [setEvent(row, "updated")] }
  }
  // The occurrence counter stays. At a new due time it starts afresh, and an in-flight delivery
  // cannot settle (next_at no longer matches); at the same due time its attempts stand, and an
  // in-flight delivery settles under the new timing.
  const moved = placed({ ...existing, ...columns, updatedAt: now }, due(), now, stream)
  const row: ScheduleRow =
    moved.state === "completed" ? moved : { ...moved, ...(moved.nextAt === existing.nextAt ? {} : clearedAttempt) }
  return { row, events: [setEvent(row, row.state === "completed" ? "completed" : "retimed")] }
}

/** A spec's window, count and jitter as an event records them: only those set. */
function rulesOf(spec: ScheduleSpec): Record<string, number> {
  const rules: Record<string, number> = {}
  if (spec.startAt !== null) rules.startAt = spec.startAt
  if (spec.endAt !== null) rules.endAt = spec.endAt
  if (spec.times !== null) rules.times = spec.times
  if (spec.jitterMs !== null) rules.jitterMs = spec.jitterMs
  return rules
}

const clearedAttempt = { retryAt: null, attempts: 0, lastError: null } as const
const unclaimed = { claimUntil: null, claimToken: null } as const

/**
 * The claim taken from a row by a caller (cancel, resume, an upsert that restarts it): the token
 * goes, so the fence refuses the delivery's answer, but a live lease stays as a hold on eligible_at,
 * so that the same key is never delivered again while that delivery may still run.
 */
const withdrawn = (row: ScheduleRow, now: number) => ({ claimToken: null, claimUntil: heldUntil(row, now) }) as const

/** The end of a delivery of this row that may still run at `now` (its claim's live lease), or null. */
export const heldUntil = (row: ScheduleRow, now: number): number | null =>
  row.claimUntil !== null && row.claimUntil > now ? row.claimUntil : null

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
const stillSelected = (row: ScheduleRow | undefined, seen: Selection, now: number): row is ScheduleRow =>
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

const attemptsSpent = (row: ScheduleRow) => row.maxAttempts !== null && row.attempts >= row.maxAttempts

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
function exhaust(row: ScheduleRow, now: number, reason: string, stream: string): Change {
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
function advance(row: ScheduleRow, now: number, stream: string, delivered: boolean): ScheduleRow {
  const counted = delivered ? { ...row, delivered: row.delivered + 1 } : row
  const due = isRecurring(row) ? nextDue(row, now) : undefined
  // A completed schedule keeps the occurrence it ended on: one started again goes on with the next.
  if (due === undefined || over(counted, due)) return finish(counted, now)
  const next = { ...counted, occurrence: row.occurrence + 1, ...clearedAttempt }
  return { ...next, cadenceAt: due, nextAt: jittered(stream, next, due) }
}

/** Stops a scheduled or failed schedule, keeping `reason` (checked by validateReason) on the row and in its event. */
export function cancel(row: ScheduleRow | undefined, now: number, reason: string | null = null): Transition {
  if (!row) return none(row)
  if (row.state !== "scheduled" && row.state !== "failed") return none(row, `schedule is ${row.state}`)
  const cancelled: ScheduleRow = {
    ...row,
    state: "cancelled",
    retryAt: null,
    ...withdrawn(row, now),
    updatedAt: now,
    finishedAt: now,
    cancelReason: reason,
  }
  const data = { occurrence: row.occurrence, from: row.state, ...(reason === null ? {} : { reason }) }
  return { row: cancelled, events: [{ type: "schedule/cancelled", scheduleId: row.id, data }] }
}

/** failed or cancelled -> scheduled at the same occurrence, attempts reset. */
export function resume(row: ScheduleRow | undefined, now: number): Transition {
  if (!row) return none(row)
  if (row.state !== "failed" && row.state !== "cancelled") return none(row, `schedule is ${row.state}`)
  const resumed: ScheduleRow = {
    ...row,
    state: "scheduled",
    ...clearedAttempt,
    ...withdrawn(row, now),
    updatedAt: now,
    finishedAt: null,
    cancelReason: null,
  }
  return {
    row: resumed,
    events: [
      {
        type: "schedule/set",
        scheduleId: row.id,
        data: { cause: "resumed", from: row.state, occurrence: row.occurrence, nextAt: row.nextAt },
      },
    ],
  }
}

/** Makes the current occurrence due now; its place on the cadence (cadenceAt) stays. */
export function trigger(row: ScheduleRow | undefined, now: number): Transition {
  if (!row) return none(row)
  if (row.state !== "scheduled") return none(row, `schedule is ${row.state}`)
  // A live lease with no token is a withdrawn claim's hold: its delivery may still be running too.
  if (heldUntil(row, now) !== null) return none(row, "the current occurrence is being delivered")
  const triggered: ScheduleRow = {
    ...row,
    nextAt: Math.min(row.nextAt, now),
    retryAt: null,
    ...unclaimed,
    updatedAt: now,
  }
  return {
    row: triggered,
    events: [
      {
        type: "schedule/set",
        scheduleId: row.id,
        data: { cause: "triggered", occurrence: row.occurrence, nextAt: triggered.nextAt },
      },
    ],
  }
}

/** Deletes a finished (completed, failed) or cancelled schedule now; a scheduled one is cancelled first, a held one waits. */
export function remove(row: ScheduleRow | undefined, now: number): Transition {
  if (!row) return none(row)
  if (row.state === "scheduled") return none(row, "schedule is scheduled: cancel it first")
  // Gone, the id would start over at occurrence 1: the same key, deliverable while this one runs.
  const held = heldUntil(row, now)
  if (held !== null)
    return none(row, `its last delivery may still be running until ${new Date(held).toISOString()}: remove it then`)
  return {
    row,
    removed: true,
    events: [{ type: "schedule/removed", scheduleId: row.id, data: { occurrence: row.occurrence, from: row.state } }],
  }
}
