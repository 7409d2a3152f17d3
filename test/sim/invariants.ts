import type { TickReport } from "../../src/infra/schedules/stream/event-map.ts"
import { SWEEP_BATCH } from "../../src/infra/schedules/stream/retention.ts"
import { BATCH_SIZE, UNDECLARED_CONSUMER_LEASE_MS } from "../../src/infra/schedules/stream/tick.ts"
import { consumerNamed, type Seen } from "../support/consumers.ts"
import type { Attempt, Model } from "./model.ts"
import { backoffMs, type Event, eligibleOf, jitteredAt, keyOf, type Row, sameRow } from "./rows.ts"
import type { Settlement } from "./settlement.ts"
import type { Step } from "./steps.ts"

export interface TickRecord {
  at: number
  report: TickReport
  claimed: Attempt[]
  deliveries: Seen[]
  /** Claims of this generation still dispatched when the tick began. */
  inFlightBefore: number
}

/** Everything one step did, as storage and the hooks saw it. */
export interface StepRecord {
  step: Step
  stream: string
  now: number
  pre: Map<string, Row>
  post: Map<string, Row>
  events: Event[]
  alarm: number | null
  tick?: TickRecord
  settlements: Settlement[]
  /** Attempts whose answer or deadline came in this step: each must have settled. */
  due: Attempt[]
  /** The stream's retention window for finished rows when the step began, and after it (an upsert may set it). */
  retention: number
  retentionAfter: number
  faultFired: boolean
  refusing: boolean
  inFlight: number
}

const show = (value: unknown) => JSON.stringify(value)
const TYPES = new Set([
  "schedule/set",
  "schedule/cancelled",
  "schedule/fired",
  "schedule/late",
  "schedule/failed",
  "schedule/removed",
])

/** When a finished row leaves the retention window (undefined: it is not finished). */
const sweepAt = (row: Row, window: number) => (row.finished_at === null ? undefined : row.finished_at + window)

function checkRows(r: StepRecord, model: Model): void {
  for (const row of r.post.values()) {
    const claimed = row.claim_token !== null
    if (row.eligible_at !== eligibleOf(row)) model.fail("row", `${row.id} eligible_at is not max(next, retry, claim)`)
    if (claimed && row.claim_until === null) model.fail("row", `${row.id} has a token without a lease: ${show(row)}`)
    if (row.state !== "scheduled" && (claimed || row.retry_at !== null))
      model.fail("row", `${row.id} is ${row.state} but keeps a claim or retry: ${show(row)}`)
    // A lease without a token is the hold of a claim a caller took away: only cancel, resume and upsert leave one.
    if (!claimed && row.claim_until !== null && row.state !== "scheduled" && row.state !== "cancelled")
      model.fail("row", `${row.id} is ${row.state} and holds a lease: ${show(row)}`)
    if (row.occurrence < 1 || row.attempts < 0) model.fail("row", `${row.id} counters out of range: ${show(row)}`)
    if (row.state === "scheduled") {
      // A scheduled row's occurrence lies inside its window and its count; its delivery is never later than its cadence plus its offset.
      if (row.times !== null && row.delivered >= row.times)
        model.fail("count", `${row.id} is scheduled with ${row.delivered} of ${row.times} delivered`)
      if (row.end_at !== null && row.cadence_at > row.end_at)
        model.fail("window", `${row.id} is scheduled at ${row.cadence_at}, after its window's end ${row.end_at}`)
      if (row.start_at !== null && row.cadence_at < row.start_at)
        model.fail("window", `${row.id} is scheduled at ${row.cadence_at}, before its window's start ${row.start_at}`)
      if (row.next_at > jitteredAt(r.stream, row, row.occurrence, row.cadence_at))
        model.fail("jitter", `${row.id} is due at ${row.next_at}, after its cadence plus its offset: ${show(row)}`)
    }
    if ((row.state === "scheduled") !== (row.finished_at === null))
      model.fail("row", `${row.id} is ${row.state} with finished_at ${row.finished_at}`)
    if (claimed) {
      // At most one live claim per row: the stored token is the one claim that may still settle.
      const attempt = model.attempts.get(row.claim_token as string)
      if (!attempt || attempt.id !== row.id || attempt.claimUntil !== row.claim_until)
        model.fail("claim", `${row.id} holds a claim no tick made: ${show(row)}`)
    }
    const before = r.pre.get(row.id)
    if (before && row.occurrence < before.occurrence) model.fail("row", `${row.id} occurrence went backwards`)
    // A row keeps its incarnation; a row created anew (after a sweep or a remove) draws one no earlier row of the id had.
    if (before && row.incarnation !== before.incarnation)
      model.fail("incarnation", `${row.id} incarnation changed from ${before.incarnation} to ${row.incarnation}`)
    if (!before) {
      const drawn = `${row.id}@${row.incarnation}`
      const fresh =
        Number.isSafeInteger(row.incarnation) &&
        (row.incarnation as number) >= 0 &&
        (row.incarnation as number) < 2 ** 48
      if (!fresh || model.incarnations.has(drawn))
        model.fail("incarnation", `${row.id} was created with incarnation ${row.incarnation}, not a fresh one`)
      model.incarnations.add(drawn)
    }
  }
}

/** Each claim: taken only when eligible, in due order, within the dispatch room, delivered as it was claimed. */
function checkTick(r: StepRecord, t: TickRecord, model: Model): void {
  // A due row whose allowed attempts were all claimed (and lost) is exhausted, not claimed (core.expireLost).
  // It still takes its place in the tick's selection of at most the dispatch room's due rows.
  const spent = (row: Row) => row.max_attempts !== null && row.attempts >= row.max_attempts
  const eligible = [...r.pre.values()]
    .filter((row) => row.state === "scheduled" && row.eligible_at <= t.at)
    .sort((a, b) => a.eligible_at - b.eligible_at || (a.id < b.id ? -1 : 1))
  const room = Math.max(0, BATCH_SIZE - t.inFlightBefore)
  const claimedIds = t.claimed.map((a) => a.id)
  const expectedIds = eligible
    .slice(0, room)
    .filter((row) => !spent(row))
    .map((row) => row.id)
  const complete = !r.faultFired && !r.refusing
  if (claimedIds.some((id, i) => id !== expectedIds[i]) || (complete && claimedIds.length !== expectedIds.length)) {
    const held = [...r.pre.values()].map((row) => `${row.id}:${row.state}@${row.eligible_at}`)
    model.fail("claim", `tick at ${t.at} claimed [${claimedIds}] of due [${expectedIds}] (rows ${held.join(" ")})`)
  }
  if (t.report.claimed !== t.claimed.length || t.report.now !== t.at)
    model.fail("report", `report ${show(t.report)} for ${t.claimed.length} claims at ${t.at}`)
  const settled = t.report.delivered + t.report.retried + t.report.failed + t.report.stale
  if (settled > t.report.claimed) model.fail("report", `report settles more than it claimed: ${show(t.report)}`)
  // A settlement's storage error in a yielded tick surfaces later, through afterSettling.
  if ((complete && t.report.error !== undefined) || (r.refusing && t.report.error === undefined))
    model.fail("report", `tick error ${t.report.error} with fault ${r.faultFired} refusing ${r.refusing}`)

  t.claimed.forEach((attempt) => {
    const before = r.pre.get(attempt.id) as Row
    const delivery = t.deliveries.find((d) => d.delivery.scheduleId === attempt.id)?.delivery
    if (attempt.missing && delivery)
      model.fail("missing-consumer", `${attempt.id} was delivered to a consumer the deploy lacks`)
    model.counters.deliveries++
    if (before.jitter_ms !== null) model.counters.jittered++
    if (before.backfill_of !== null) model.counters.backfillDelivered++
    if (model.stopped.has(attempt.id)) model.fail("after-stop", `${attempt.id} delivered while stopped`)
    if (before.claim_until !== null && before.claim_until > t.at)
      model.fail("claim", `${attempt.id} claimed at ${t.at} while another claim was live until ${before.claim_until}`)
    const lease = attempt.missing ? UNDECLARED_CONSUMER_LEASE_MS : (consumerNamed(before.consumer)?.leaseMs as number)
    if (attempt.attempts !== before.attempts + 1 || attempt.claimUntil !== t.at + lease)
      model.fail(
        "claim",
        `${attempt.id} claimed as attempt ${attempt.attempts} until ${attempt.claimUntil}: ${show(before)}`,
      )
    if (
      (before.times !== null && before.delivered >= before.times) ||
      (before.start_at !== null && before.cadence_at < before.start_at) ||
      (before.end_at !== null && before.cadence_at > before.end_at)
    )
      model.fail("window", `${attempt.id} claimed outside its window or count: ${show(before)}`)
    if (before.max_attempts !== null && attempt.attempts > before.max_attempts)
      model.fail(
        "max-attempts",
        `${attempt.id} occurrence ${attempt.occurrence} delivered as attempt ${attempt.attempts} of maxAttempts ${before.max_attempts}`,
      )
    // The key and the due time are the occurrence's: the same through every attempt.
    const expected = {
      scheduleId: attempt.id,
      occurrence: before.occurrence,
      dueAt: before.next_at,
      attempt: attempt.attempts,
      // One clock per tick: the attempt starts at the tick's time.
      lateByMs: Math.max(0, t.at - before.next_at),
      idempotencyKey: keyOf(r.stream, before),
    }
    const got = delivery && { ...expected, ...delivery, dueAt: delivery.dueAt.getTime() }
    if (got && Object.entries(expected).some(([k, v]) => got[k as keyof typeof got] !== v))
      model.fail("delivery", `expected ${show(expected)}, delivered ${show(got)}`)
  })
  // Claims made before a storage error are still delivered (tick.ts claimDue).
  const dispatched = t.claimed.filter((a) => !a.missing)
  if (t.deliveries.length !== dispatched.length) {
    const delivered = new Set(t.deliveries.map((d) => d.delivery.scheduleId))
    const ids = dispatched.filter((a) => !delivered.has(a.id)).map((a) => a.id)
    model.fail(
      r.faultFired ? "undelivered-claim" : "delivery",
      `tick at ${t.at} claimed [${ids}] and never dispatched them (report ${show(t.report)})`,
    )
  }

  checkSweep(r, t, model, complete)

  // An idle tick (nothing due, nothing to sweep) opens no write transaction.
  const due = [...r.pre.values()].filter(
    (row) => (row.state === "scheduled" && row.eligible_at <= t.at) || (sweepAt(row, r.retention) ?? Infinity) <= t.at,
  )
  if (due.length === 0 && r.settlements.length === 0) {
    model.counters.idleTicks++
    if (t.report.claimed !== 0 || t.report.rowsWritten !== 0 || r.events.length > 0)
      model.fail("idle", `idle tick at ${t.at} wrote: ${show(t.report)}`)
    for (const [id, row] of r.post) if (!sameRow(row, r.pre.get(id))) model.fail("idle", `idle tick changed ${id}`)
  }
}

/** A tick deletes only finished rows out of the retention window, at most SWEEP_BATCH, and leaves none it could take. */
function checkSweep(r: StepRecord, t: TickRecord, model: Model, complete: boolean): void {
  // A row this tick finished (a settlement, or a lost last attempt given up at its claim) may leave at once, with a window of 0.
  const settled = new Map(r.settlements.flatMap((s) => (s.after ? [[s.after.id, s.after] as const] : [])))
  const lost = (row: Row) =>
    row.state === "scheduled" &&
    row.max_attempts !== null &&
    row.attempts >= row.max_attempts &&
    row.eligible_at <= t.at
  const finishedBy = (row: Row): Row =>
    settled.get(row.id) ?? (lost(row) ? { ...row, state: "failed", finished_at: t.at } : row)
  const gone = [...r.pre.values()].filter((row) => !r.post.has(row.id)).map(finishedBy)
  model.counters.swept += gone.length
  // A swept id upserted again is a new schedule whose keys start over at :1 (docs/schedules.md, "Reusing an id").
  for (const row of gone) model.incarnation.set(row.id, (model.incarnation.get(row.id) ?? 0) + 1)
  for (const row of gone) {
    const at = sweepAt(row, r.retention)
    if (at === undefined || at > t.at)
      model.fail("sweep", `tick at ${t.at} deleted ${row.id} (window ${r.retention}): ${show(row)}`)
  }
  if (gone.length > SWEEP_BATCH) model.fail("sweep", `tick at ${t.at} deleted ${gone.length} rows`)
  if (!complete || gone.length === SWEEP_BATCH) return
  for (const row of r.post.values()) {
    const before = r.pre.get(row.id)
    const at = before && sweepAt(before, r.retention)
    if (at !== undefined && at <= t.at && before?.finished_at === row.finished_at)
      model.fail("sweep", `tick at ${t.at} kept ${row.id}, out of its window (${r.retention}) since ${at}`)
  }
}

/** Replays the step's events into the model: stops, restarts, discharged and lost occurrences. */
function checkEvents(r: StepRecord, model: Model): void {
  let seq = model.lastSeq
  const moved = new Set<string>()
  for (const event of r.events) {
    const { schedule_id: id, data } = event
    if (event.seq <= seq || !TYPES.has(event.type)) model.fail("event", `bad event ${show(event)}`)
    seq = event.seq
    switch (event.type) {
      case "schedule/set": {
        const cause = data.cause as string
        if (cause === "created" || cause === "restarted" || cause === "resumed") model.stopped.delete(id)
        if (["created", "restarted", "retimed", "triggered", "completed"].includes(cause)) moved.add(id)
        // A new due time: the occurrence is owed again once that time comes; a completed one (its count or window) is not.
        if (cause === "restarted" || cause === "retimed" || cause === "completed") model.owed.delete(id)
        break
      }
      case "schedule/cancelled":
        model.counters.cancelled++
        model.stopped.add(id)
        model.owed.delete(id)
        break
      case "schedule/fired":
        if (model.stopped.has(id)) model.fail("after-stop", `${id} fired after it was stopped: ${show(event)}`)
        if (model.owed.get(id) === data.occurrence) model.owed.delete(id)
        break
      case "schedule/failed":
        if (model.stopped.has(id)) model.fail("after-stop", `${id} failed again after it was stopped: ${show(event)}`)
        if ("retryAt" in data && data.retryAt !== event.at + backoffMs(data.attempts as number))
          model.fail("backoff", `${show(event)} is not ${backoffMs(data.attempts as number)} ms after it`)
        if (data.terminal === true) model.stopped.add(id)
        if ((data.terminal === true || data.skipped === true) && model.owed.get(id) === data.occurrence)
          model.owed.delete(id)
        break
      case "schedule/late":
        if (!((data.lateByMs as number) > 1_000)) model.fail("event", `late below the threshold: ${show(event)}`)
        break
      case "schedule/removed":
        model.counters.removed++
        model.owed.delete(id)
        break
    }
  }
  for (const [id, row] of r.post) {
    const before = r.pre.get(id)
    // Retries never move a due time: only an upsert or a trigger does.
    if (
      before &&
      before.occurrence === row.occurrence &&
      (before.next_at !== row.next_at || before.cadence_at !== row.cadence_at) &&
      !moved.has(id)
    ) {
      model.fail("due-time", `${id} occurrence ${row.occurrence} moved from ${before.next_at} to ${row.next_at}`)
    }
  }
  for (const [id, occurrence] of model.owed) {
    const row = r.post.get(id)
    if (row?.state !== "scheduled" || row.occurrence !== occurrence) {
      model.fail("occurrence-lost", `${id} occurrence ${occurrence} was due, and is gone undelivered: ${show(row)}`)
      model.owed.delete(id)
    }
  }
  for (const row of r.post.values()) {
    if (row.state === "scheduled" && row.next_at <= Math.min(r.now, model.horizon) && !model.owed.has(row.id))
      model.owed.set(row.id, row.occurrence)
  }
}

/**
 * The alarm is never later than the smallest eligible_at, nor than the next row to leave the
 * retention window, unless it is the recovery alarm of a storage error.
 */
function checkAlarm(r: StepRecord, model: Model): void {
  const window = r.retentionAfter
  const times = [...r.post.values()].map((row) => (row.state === "scheduled" ? row.eligible_at : sweepAt(row, window)))
  if (times.length === 0) return
  const next = Math.min(...(times as number[]))
  if (r.alarm !== null && r.alarm <= next) return
  const write = model.alarmWrite
  if (write?.recovery && write.value === r.alarm) return
  // With every dispatch slot taken the alarm waits for a slot on purpose.
  if (r.inFlight >= BATCH_SIZE) return
  const early = [...r.post.values()]
    .filter(
      (row) =>
        r.alarm === null || (row.state === "scheduled" ? row.eligible_at : (sweepAt(row, window) as number)) < r.alarm,
    )
    .map((row) => row.id)
  const message = `alarm ${r.alarm} is later than eligible_at ${next} of [${early}] (last write ${show(write)})`
  if (model.staleArm !== undefined)
    model.fail("alarm-after-failed-arm", `${message}, after a call that committed and then threw`)
  else if (early.every((id) => model.lateSettled.has(id)))
    model.fail("alarm-late-settlement", `${message}, lowered by a settlement after its tick yielded`)
  else model.fail("alarm", message)
}

function checkDue(r: StepRecord, model: Model): void {
  // A claim never dispatched (undelivered-claim) has no deadline to keep.
  for (const attempt of r.due.filter((a) => a.seen !== undefined)) {
    if (attempt.status === "in-flight")
      model.fail("settle-missing", `${attempt.id} attempt ${attempt.attempts} answered or timed out, and never settled`)
    const timedOut = attempt.behaviour === "hang" || (attempt.behaviour === "wait" && !attempt.answeredInTime)
    if (timedOut && attempt.seen && !attempt.seen.aborted())
      model.fail("abort", `${attempt.id} attempt ${attempt.attempts} passed its deadline with its signal not aborted`)
  }
}

/** Every invariant a step must keep; violations go to the model. */
export function checkStep(r: StepRecord, model: Model): void {
  checkRows(r, model)
  if (r.tick) checkTick(r, r.tick, model)
  checkEvents(r, model)
  checkAlarm(r, model)
  checkDue(r, model)
}
