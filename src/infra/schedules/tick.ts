import { consumers } from "../../consumers.ts"
import { TIMED_OUT, within } from "../deadline.ts"
import { describeError, logLine } from "../log.ts"
import type { Delivery } from "./consumer.ts"
import * as core from "./core.ts"
import { dispatch } from "./dispatch.ts"
import type { AlarmRecorder } from "./recorder.ts"
import type { Retention } from "./retention.ts"
import type { ScheduleRow } from "./row.ts"
import type { ScheduleStore } from "./store.ts"
import { idempotencyKey } from "./view.ts"

/** At most this many rows are claimed and dispatched by one tick (ADR 0202). */
export const BATCH_SIZE = 32
/** A tick waiting on slow consumers returns by then; their results settle when they come. */
export const YIELD_AFTER_MS = 30_000
export const RECOVERY_FIRST_MS = 1_000
export const RECOVERY_MAX_MS = 60_000
/** The lease of a claim whose consumer is not declared (a rolling deploy): it is retried at once anyway. */
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
  /** Finished rows deleted because they fell out of the stream's retention window. */
  swept: number
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
    private readonly retention: Retention,
  ) {}

  /** Never throws: a storage error is logged and arms one recovery alarm (1 s doubling to 60 s). */
  async tick(at: number | undefined, refusal: Error | undefined): Promise<TickReport> {
    // One clock per tick: an injected time (tests) stands for the whole tick, with no real time mixed in.
    const clock = at === undefined ? Date.now : () => at
    const before = { ...this.store.counts }
    const report: TickReport = {
      now: clock(),
      claimed: 0,
      delivered: 0,
      retried: 0,
      failed: 0,
      stale: 0,
      inFlight: 0,
      swept: 0,
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
      // Finished rows past the retention window go, a bounded batch per tick that runs anyway.
      report.swept = this.retention.sweep(report.now)
      report.alarm = await this.arm(clock())
    } catch (error) {
      report.error = describeError(error)
      report.alarm = await this.recover(error, clock())
    }
    report.rowsRead = this.store.counts.rowsRead - before.rowsRead
    report.rowsWritten = this.store.counts.rowsWritten - before.rowsWritten
    if (report.claimed > 0 || report.swept > 0) logLine("info", "schedule.tick", { stream: this.stream, ...report })
    return report
  }

  /**
   * Sets the alarm to the smallest eligible_at (or the next retention sweep), touching storage only
   * when it changes, and records it in the D1 directory when it moved meaningfully (or always, with
   * `rewrite`). A directory write that fails is retried by this alarm, so the alarm moves to it.
   */
  async arm(now = Date.now(), rewrite = false): Promise<number | null> {
    const next = await this.serially(() => this.setAlarm(now))
    const retry = this.recorder.retryAt()
    await this.recorder.record(next, now, rewrite)
    if (this.recorder.retryAt() !== retry) await this.serially(() => this.setAlarm(now))
    return next
  }

  /** Arms run one after another, each reading storage at its own turn. */
  private serially<T>(arm: () => Promise<T>): Promise<T> {
    const armed = this.arming.then(arm)
    this.arming = armed.catch(() => undefined)
    return armed
  }

  /** arm(), or the recovery alarm when arming fails: for work that already committed. Never throws. */
  rearm(now = Date.now()): Promise<number | null> {
    return this.arm(now).catch((error) => this.recover(error, now))
  }

  /** Sets the stream's one alarm; answers the time the directory records (without a directory retry). */
  private async setAlarm(now: number): Promise<number | null> {
    const current = await this.storage.getAlarm()
    // Read after the await, so a settlement that landed meanwhile is seen.
    let due = this.store.nextEligibleAt() ?? null
    // With every dispatch slot taken, due rows wait for a slot; a late answer re-arms sooner.
    if (due !== null && this.inFlight >= BATCH_SIZE) due = Math.max(due, now + this.yieldAfterMs)
    const next = earliest(due, this.retention.nextSweepAt())
    const alarm = earliest(next, this.recorder.retryAt())
    if (alarm === null && current !== null) await this.storage.deleteAlarm()
    else if (alarm !== null && current !== alarm) await this.storage.setAlarm(alarm)
    return next
  }

  /**
   * Selects and claims the due rows in one transaction, each rechecked by the core against what
   * the selection saw. A storage error claims none of them. An idle tick (nothing due) only reads.
   */
  private claimDue(now: number, room: number): { claims: Claimed[]; error?: unknown } {
    if (room <= 0) return { claims: [] }
    try {
      // Synchronous from here to the commit: no other call runs between this read and the claims.
      const due = this.store.selectDue(now, room)
      if (due.length === 0) return { claims: [] }
      const claims = this.store.transaction(() => {
        const claimed: Claimed[] = []
        for (const row of due) {
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
      const transition = this.settle(stream, claim, result, clock())
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
    // A rolling deploy may briefly lack a consumer: retried on the normal backoff, never failed for good.
    if (!consumer) return Promise.resolve({ status: "retry", reason: `unknown consumer "${row.consumer}"` })
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
   * Writes an attempt's result only if the fence still holds, in one transaction, advancing the
   * row as stored now (an upsert while the claim was out may have changed its timing or rules);
   * only the columns the result changes are written.
   */
  private settle(stream: string, claim: core.Claim, result: core.DeliveryResult, now: number) {
    const transition = this.store.transaction(() => {
      const row = this.store.get(claim.id)
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

/** The earlier of two optional times. */
const earliest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b)
