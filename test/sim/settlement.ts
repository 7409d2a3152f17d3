import type { Claim } from "../../src/infra/schedules/stream/core/claim.ts"
import type { DeliveryResult } from "../../src/infra/schedules/stream/core/settle.ts"
import type { Attempt, Model } from "./model.ts"
import {
  backoffMs,
  cadenceProblem,
  type Event,
  isOver,
  isRecurring,
  jitteredAt,
  nextCadence,
  type Row,
  sameRow,
} from "./rows.ts"

/** One call of the ticker's settle, as the oracle saw it from outside the transaction. */
export interface Settlement {
  attempt: Attempt | undefined
  epoch: number
  claim: Claim
  result: DeliveryResult
  /** The settlement's time: the world's clock when it settled. */
  now: number
  /** Fake wall time when it settled. */
  wall: number
  before: Row | undefined
  after: Row | undefined
  events: Event[]
  wrote: boolean
  threw: boolean
  /** The stream's name: an occurrence's key, and so its jitter, names it. */
  stream: string
}

const show = (value: unknown) => JSON.stringify(value)

/** The result a consumer's behaviour must come back as, through dispatch's deadline. */
function expectedStatus(
  attempt: Attempt,
  wall: number,
): { status: DeliveryResult["status"]; deadline: boolean; malformed?: true } {
  const timedOut = { status: "retry" as const, deadline: true }
  const malformed = { status: "retry" as const, deadline: false, malformed: true as const }
  // A consumer the deploy lacks is never called: the occurrence is retried on the normal backoff.
  if (attempt.missing) return { status: "retry", deadline: false }
  switch (attempt.behaviour) {
    case "ok":
      return { status: "delivered", deadline: false }
    case "retry":
    case "throw":
      return { status: "retry", deadline: false }
    case "terminal":
      return { status: "terminal", deadline: false }
    case "malformed":
      return malformed
    case "hang":
      return timedOut
    case "wait": {
      if (!attempt.answeredInTime || attempt.answered === undefined || wall >= attempt.deadline) return timedOut
      const answer = attempt.answered
      if (answer === "malformed") return malformed
      return { status: answer === "ok" ? "delivered" : answer === "terminal" ? "terminal" : "retry", deadline: false }
    }
  }
}

/** Checks one settlement: the fence, then the row and events each kind of result must leave. */
export function checkSettlement(s: Settlement, currentEpoch: number, model: Model): void {
  const fail = (rule: string, message: string) =>
    model.fail(rule, `${s.claim.id} occurrence ${s.claim.occurrence} attempt ${s.claim.attempts}: ${message}`)
  const { attempt, claim, result, now, before, after, events } = s

  if (!attempt) {
    fail("unknown-claim", `settled a claim no tick made (token ${claim.token})`)
    return
  }
  if (s.epoch !== currentEpoch) fail("dead-generation", `a generation that was evicted settled its result`)
  if (attempt.status !== "in-flight") fail("settled-twice", `settled again after ${attempt.status}`)
  const expected = expectedStatus(attempt, s.wall)
  const reason = result.status === "delivered" ? "" : result.reason
  if (result.status !== expected.status || expected.deadline !== reason.startsWith("deadline")) {
    fail("consumer-outcome", `a "${attempt.behaviour}" delivery came back as ${show(result)}`)
  }
  // A malformed outcome is a retry of its own row, saying so, whatever was settled with it.
  if ((expected.malformed === true) !== reason.startsWith("malformed outcome: "))
    fail("malformed", `a "${attempt.behaviour}" (${attempt.answered}) delivery came back as ${show(result)}`)
  if (expected.malformed) model.counters.malformed++
  if (attempt.missing && reason !== `unknown consumer "${attempt.consumer}"`)
    fail("missing-consumer", `a delivery to a consumer the deploy lacks came back as ${show(result)}`)
  if (expected.deadline && s.wall < attempt.deadline) fail("deadline", `timed out before its deadline`)
  attempt.status = s.threw ? "settle-failed" : "settled"
  attempt.result = result.status

  const fence =
    before !== undefined &&
    before.state === "scheduled" &&
    before.claim_token === claim.token &&
    before.claim_until !== null &&
    before.claim_until > now &&
    before.occurrence === claim.occurrence &&
    before.next_at === claim.nextAt
  if (s.threw) {
    if (!sameRow(before, after) || events.length) fail("rollback", `a failed settlement left writes behind`)
    return
  }
  if (!fence) {
    model.counters.stale++
    if (s.wrote || !sameRow(before, after) || events.length) {
      fail(
        "fence",
        `a stale result was written (now ${now}; stored row ${show(before)}; claim ${show(claim)}; events ${show(events)})`,
      )
    }
    return
  }
  if (!s.wrote || !before || !after) {
    fail("fence", `a result the fence admits was not written`)
    return
  }

  for (const event of events) {
    if (event.schedule_id !== claim.id || event.at !== now) fail("settle-event", `stray event ${show(event)}`)
  }
  const cleared = after.claim_token === null && after.claim_until === null && after.retry_at === null
  const [first, second] = events
  /** Past the occurrence (`delivered`: it counts): the next on the cadence, or completed in place at its window's end or count. */
  const advanced = (delivered: boolean) => {
    const count = before.delivered + (delivered ? 1 : 0)
    if (after.delivered !== count)
      fail("count", `delivered ${after.delivered} after ${before.delivered}: ${show(after)}`)
    const next = isRecurring(before) ? nextCadence(before, now) : undefined
    const ends = next === undefined || isOver({ ...before, delivered: count }, next)
    if (ends) {
      if (isRecurring(before)) model.counters.ruleCompleted++
      if (
        after.state !== "completed" ||
        after.occurrence !== before.occurrence ||
        after.next_at !== before.next_at ||
        after.finished_at !== now
      )
        fail("advance", `a row with no next occurrence (window, count, one-shot) did not complete: ${show(after)}`)
    } else {
      const problem = cadenceProblem(before, now, after.cadence_at)
      if (problem) fail("cadence", problem)
      if (after.state !== "scheduled" || after.occurrence !== before.occurrence + 1)
        fail("advance", `recurring row did not move to the next occurrence: ${show(after)}`)
      // The jittered time is the cadence's plus the next occurrence's offset: the cadence itself never moves.
      if (after.next_at !== jitteredAt(s.stream, before, before.occurrence + 1, after.cadence_at))
        fail(
          "jitter",
          `next_at ${after.next_at} is not cadence ${after.cadence_at} plus its key's offset: ${show(after)}`,
        )
    }
    if (!cleared || after.attempts !== 0) fail("advance", `retry state not cleared: ${show(after)}`)
  }

  if (result.status === "delivered") {
    model.counters.fired++
    // The lateness the consumer was handed is the one recorded.
    const lateByMs = result.lateByMs
    if (attempt.seen && attempt.seen.delivery.lateByMs !== lateByMs)
      fail("settle-delivered", `delivered late by ${attempt.seen.delivery.lateByMs} ms, settled as ${lateByMs}`)
    const fired = { occurrence: claim.occurrence, attempt: claim.attempts, lateByMs, nextAt: after.next_at }
    if (first?.type !== "schedule/fired" || Object.entries(fired).some(([k, v]) => first.data[k] !== v)) {
      fail("settle-delivered", `expected fired ${show(fired)}, got ${show(events)}`)
    }
    const late = lateByMs > 1_000
    if (events.length !== (late ? 2 : 1) || (late && second?.type !== "schedule/late")) {
      fail("settle-delivered", `late by ${lateByMs} ms, events ${show(events.map((e) => e.type))}`)
    }
    if (after.last_error !== null) fail("advance", `last_error kept after a delivery`)
    advanced(true)
    return
  }

  if (events.length !== 1 || first?.type !== "schedule/failed") {
    fail("settle-failed", `expected one schedule/failed, got ${show(events)}`)
    return
  }
  const data = first.data
  if (data.occurrence !== claim.occurrence || data.attempts !== before.attempts || data.reason !== after.last_error) {
    fail("settle-failed", `failed event ${show(data)} does not match row ${show(after)}`)
  }
  const exhausted = before.max_attempts !== null && before.attempts >= before.max_attempts
  if (result.status === "terminal" || (exhausted && !isRecurring(before))) {
    model.counters.terminal++
    if (data.terminal !== true || "retryAt" in data) fail("settle-terminal", `event ${show(data)}`)
    if (after.state !== "failed" || !cleared || after.occurrence !== before.occurrence || after.finished_at !== now)
      fail("settle-terminal", `row not failed in place: ${show(after)}`)
    if (after.delivered !== before.delivered) fail("count", `a failure changed the count: ${show(after)}`)
    return
  }
  if (exhausted) {
    model.counters.skipped++
    if (data.skipped !== true || data.nextAt !== after.next_at || "retryAt" in data)
      fail("settle-skip", `skip event ${show(data)}`)
    advanced(false)
    return
  }
  model.counters.retries++
  if (after.delivered !== before.delivered) fail("count", `a retry changed the count: ${show(after)}`)
  const retryAt = now + backoffMs(before.attempts)
  if (data.retryAt !== retryAt || after.retry_at !== retryAt) {
    fail("backoff", `attempt ${before.attempts} failing at ${now} must retry at ${retryAt}, got ${show(data)}`)
  }
  if (
    after.state !== "scheduled" ||
    after.next_at !== before.next_at ||
    after.occurrence !== before.occurrence ||
    after.attempts !== before.attempts ||
    after.claim_token !== null ||
    after.claim_until !== null
  ) {
    fail("settle-retry", `a retry must keep the occurrence and due time and drop the claim: ${show(after)}`)
  }
}
