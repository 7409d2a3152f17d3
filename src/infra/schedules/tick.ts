import { consumers } from "../../consumers.ts"
import { TIMED_OUT, within } from "../deadline.ts"
import { describeError, logLine } from "../log.ts"
import type { Delivery } from "./consumer.ts"
import * as core from "./core.ts"
import { dispatch } from "./dispatch.ts"
import type { AlarmRecorder } from "./recorder.ts"
import type { ScheduleRow } from "./row.ts"
import type { ScheduleStore } from "./store.ts"
import { idempotencyKey } from "./view.ts"

/** At most this many rows are claimed and dispatched by one tick (ADR 0202). */
export const BATCH_SIZE = 32
/** A tick waiting on slow consumers returns by then; their results settle when they come. */
export const YIELD_AFTER_MS = 30_000
export const RECOVERY_FIRST_MS = 1_000
export const RECOVERY_MAX_MS = 60_000
/** The lease of a claim whose consumer is no longer declared: it fails at once anyway. */
const UNDECLARED_CONSUMER_LEASE_MS = 60_000

export interface TickReport {
  now: number
  claimed: number
  delivered: number
  /** Failed attempts that will be retried, and occurrences skipped by maxAttempts. */
  retried: number
  failed: number
  /** Results the settlement fence refused: they wrote nothing. */
  stale: number
  /** Deliveries still running when the tick yielded; they settle on their own. */
  inFlight: number
  alarm: number | null
  error?: string
  rowsRead: number
  rowsWritten: number
}

interface Claimed {
  row: ScheduleRow
  claim: core.Claim
}

/**
 * A stream's delivery loop: claim up to 32 due rows, dispatch them concurrently, settle each
 * behind the fence as soon as it answers, and keep the one alarm at the smallest eligible_at.
 */
export class Ticker {
  private recoveryMs = 0
  /** Deliveries dispatched and not yet settled, across ticks: never more than BATCH_SIZE. */
  private inFlight = 0
  /** The stream's name, read once before any claim: nothing may fail between a claim and its dispatch. */
  private stream: string | undefined
  /** Arms run one after another, each reading storage at its own turn. */
  private arming: Promise<unknown> = Promise.resolve()
  yieldAfterMs = YIELD_AFTER_MS

  constructor(
    private readonly store: ScheduleStore,
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
    private readonly recorder: AlarmRecorder,
  ) {}

  /** Never throws: a storage error is logged and arms one recovery alarm (1 s doubling to 60 s). */
  async tick(at: number | undefined, refusal: Error | undefined): Promise<TickReport> {
    const started = Date.now()
    // An injected `at` moves the whole tick in time; real elapsed time still passes within it.
    const base = at ?? started
    const clock = () => base + (Date.now() - started)
    const before = { ...this.store.counts }
    const report: TickReport = {
      // Selection and claims use exactly the tick's time; later steps see time pass.
      now: base,
      claimed: 0,
      delivered: 0,
      retried: 0,
      failed: 0,
      stale: 0,
      inFlight: 0,
      alarm: null,
      rowsRead: 0,
      rowsWritten: 0,
    }
    try {
      if (refusal) throw refusal
      // Cached only once set: a tick before the first upsert must not pin an empty name into keys.
      this.stream ??= this.store.meta("stream")
      const stream = this.stream ?? ""
      const { claims, error: claimError } = this.claimDue(report.now, BATCH_SIZE - this.inFlight)
      report.claimed = claims.length
      const late = { yielded: false }
      const settling = Promise.all(claims.map((claimed) => this.deliverAndSettle(stream, claimed, clock, report, late)))
      const errors = await within(settling, this.yieldAfterMs)
      if (errors === TIMED_OUT) {
        late.yielded = true
        report.inFlight = claims.length - report.delivered - report.retried - report.failed - report.stale
        void settling.then((late) => this.afterSettling(claimError ?? late.find(Boolean), clock))
        if (claimError) throw claimError
      } else {
        const error = claimError ?? errors.find(Boolean)
        if (error) throw error
        this.recoveryMs = 0
      }
      report.alarm = await this.arm(clock())
    } catch (error) {
      report.error = describeError(error)
      report.alarm = await this.recover(error, clock())
    }
    report.rowsRead = this.store.counts.rowsRead - before.rowsRead
    report.rowsWritten = this.store.counts.rowsWritten - before.rowsWritten
    if (report.claimed > 0) logLine("info", "schedule.tick", { stream: this.stream, ...report })
    return report
  }

  /**
   * Sets the alarm to the smallest eligible_at, touching storage only when it changes, and
   * records it in the D1 directory when it moved meaningfully (or always, with `rewrite`).
   */
  async arm(now = Date.now(), rewrite = false): Promise<number | null> {
    const armed = this.arming.then(() => this.setAlarm(now))
    this.arming = armed.catch(() => undefined)
    const next = await armed
    await this.recorder.record(next, now, rewrite)
    return next
  }

  /** arm(), or the recovery alarm when arming fails: for work that already committed. Never throws. */
  rearm(now = Date.now()): Promise<number | null> {
    return this.arm(now).catch((error) => this.recover(error, now))
  }

  private async setAlarm(now: number): Promise<number | null> {
    const current = await this.storage.getAlarm()
    // Read after the await, so a settlement that landed meanwhile is seen.
    let next = this.store.nextEligibleAt() ?? null
    // With every dispatch slot taken, due rows wait for a slot; a late answer re-arms sooner.
    if (next !== null && this.inFlight >= BATCH_SIZE) next = Math.max(next, now + this.yieldAfterMs)
    if (next === null && current !== null) await this.storage.deleteAlarm()
    else if (next !== null && current !== next) await this.storage.setAlarm(next)
    return next
  }

  /**
   * Selects and claims the due rows in one transaction, each rechecked by the core against what
   * the selection saw. A storage error claims none of them.
   */
  private claimDue(now: number, room: number): { claims: Claimed[]; error?: unknown } {
    if (room <= 0) return { claims: [] }
    try {
      const claims = this.store.transaction(() => {
        const claimed: Claimed[] = []
        for (const row of this.store.selectDue(now, room)) {
          const seen = { id: row.id, occurrence: row.occurrence, nextAt: row.nextAt, attempts: row.attempts }
          const lost = core.expireLost(row, seen, now)
          if (lost) {
            this.store.apply(lost, now, row)
            continue
          }
          const leaseMs = consumers.get(row.consumer)?.leaseMs ?? UNDECLARED_CONSUMER_LEASE_MS
          const c = core.claim(row, seen, now, crypto.randomUUID(), leaseMs)
          if (!c) continue
          this.store.update(row, c.row)
          claimed.push(c)
        }
        return claimed
      })
      this.inFlight += claims.length
      return { claims }
    } catch (error) {
      return { claims: [], error }
    }
  }

  /**
   * Delivers one claimed row and settles it; answers the storage error, if any, instead of
   * throwing. A result that lands after its tick yielded re-arms the alarm itself.
   */
  private async deliverAndSettle(
    stream: string,
    { row, claim }: Claimed,
    clock: () => number,
    report: TickReport,
    late: { yielded: boolean },
  ): Promise<unknown> {
    let result: core.DeliveryResult
    try {
      result = await this.deliver(stream, row, clock())
    } catch (error) {
      result = { status: "retry", reason: `the delivery could not start: ${describeError(error)}` }
    } finally {
      this.inFlight--
    }
    try {
      const transition = this.settle(row, stream, claim, result, clock())
      // After the tick yielded, this delivery is counted under inFlight in its report.
      if (late.yielded) await this.rearm(clock())
      else if (!core.changed(transition)) report.stale++
      else if (result.status === "delivered") report.delivered++
      else if (transition.row?.state === "failed") report.failed++
      else report.retried++
      return undefined
    } catch (error) {
      return error
    }
  }

  private deliver(stream: string, row: ScheduleRow, startedAt: number): Promise<core.DeliveryResult> {
    const consumer = consumers.get(row.consumer)
    if (!consumer) {
      return Promise.resolve({
        status: "terminal",
        reason: `consumer "${row.consumer}" is not declared in src/consumers.ts`,
      })
    }
    const delivery: Delivery = {
      stream,
      scheduleId: row.id,
      occurrence: row.occurrence,
      dueAt: new Date(row.nextAt),
      attempt: row.attempts,
      lateByMs: Math.max(0, startedAt - row.nextAt),
      idempotencyKey: idempotencyKey(stream, row.id, row.occurrence),
      payload: JSON.parse(row.payload),
    }
    return dispatch(consumer, delivery, { env: this.env }, startedAt)
  }

  /**
   * Writes an attempt's result only if the fence still holds, in one transaction. The fence is
   * read from storage; the rest of the row is the claimed one, and only the columns the result
   * changes are written, so a payload or consumer upserted meanwhile is kept.
   */
  private settle(claimed: ScheduleRow, stream: string, claim: core.Claim, result: core.DeliveryResult, now: number) {
    const transition = this.store.transaction(() => {
      const fence = this.store.fence(claim.id)
      const row = fence && { ...claimed, ...fence }
      const settled = core.settle(row, claim, result, now)
      if (core.changed(settled)) this.store.apply(settled, now, row)
      return settled
    })
    const row = transition.row
    // A delivery is counted in its tick's one line (and its schedule/fired event); anything else gets a line of its own.
    if (result.status === "delivered" && core.changed(transition)) return transition
    logLine("warn", "schedule.delivery", {
      stream,
      schedule: claim.id,
      occurrence: claim.occurrence,
      attempt: claim.attempts,
      outcome: core.changed(transition) ? result.status : "stale",
      ...(result.status === "delivered" ? {} : { reason: result.reason }),
      ...(row?.state === "scheduled" ? { nextAt: row.nextAt, retryAt: row.retryAt } : { state: row?.state }),
    })
    return transition
  }

  /** After a yielded tick: the late results are written; re-arm, or recover from their error. */
  private async afterSettling(error: unknown, clock: () => number): Promise<void> {
    if (error) await this.recover(error, clock())
    else await this.arm(clock()).catch((armError) => this.recover(armError, clock()))
  }

  /** onError: one log line, and one recovery alarm whose delay doubles from 1 s to 60 s. */
  private async recover(error: unknown, now: number): Promise<number | null> {
    this.recoveryMs = this.recoveryMs ? Math.min(RECOVERY_MAX_MS, this.recoveryMs * 2) : RECOVERY_FIRST_MS
    const retryAt = now + this.recoveryMs
    logLine("error", "schedule stream onError", { error: describeError(error), recoveryInMs: this.recoveryMs })
    try {
      await this.storage.setAlarm(retryAt)
      return retryAt
    } catch (alarmError) {
      logLine("error", "schedule stream could not arm its recovery alarm", { error: describeError(alarmError) })
      return null
    }
  }
}
