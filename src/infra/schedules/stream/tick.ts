import { Deadlines, TIMED_OUT, within } from "../../deadline.ts"
import { type SlotwiseEnv, slotwiseEnv } from "../../env.ts"
import { describeError } from "../../log.ts"
import { measured, recordBatch } from "../../metrics/index.ts"
import type { ConsumerRegistry } from "../contract/consumer.ts"
import { StreamAlarm } from "./alarm.ts"
import * as core from "./core/index.ts"
import { type Claimed, claimDue } from "./delivery-claim.ts"
import { dispatch } from "./dispatch.ts"
import { logTicks, type SettlingAnswer, type StreamEmitter, type TickReport } from "./event-map.ts"
import type { Retention } from "./retention.ts"
import type { Tally } from "./rollup.ts"
import type { DirectoryRecorder, StreamSeams } from "./seams.ts"
import { type Answer, Settlements, settleAll } from "./settlement.ts"
import type { ScheduleStore } from "./store.ts"

/** At most this many rows are claimed and dispatched by one tick, and in flight per stream (ARCHITECTURE.md, "Deliveries"). */
export const BATCH_SIZE = 32
/** A tick waiting on slow consumers returns by then; their results settle when they come. */
export const YIELD_AFTER_MS = 30_000
/** The lease of a claim whose consumer is not declared (a rolling deploy): it is retried at once anyway. */
export const UNDECLARED_CONSUMER_LEASE_MS = 60_000

/**
 * A stream's delivery loop: claim up to 32 due rows, dispatch them concurrently, settle each
 * behind the fence as soon as it answers, sweep what left the retention window, and re-arm.
 */
export class Ticker {
  /** Deliveries dispatched and not yet settled, across ticks: never more than BATCH_SIZE. */
  private inFlight = 0
  /** The stream's name, read once before any claim: nothing may fail between a claim and its dispatch. */
  private stream: string | undefined
  private readonly yieldAfterMs: number
  /** The stream's one alarm; it waits for a dispatch slot while all BATCH_SIZE are taken. */
  readonly alarm: StreamAlarm
  private readonly settlements: Settlements
  private readonly metricsEnv: SlotwiseEnv

  constructor(
    private readonly store: ScheduleStore,
    storage: DurableObjectStorage,
    private readonly env: Cloudflare.Env,
    private readonly consumers: ConsumerRegistry,
    private readonly retention: Retention,
    recorder: DirectoryRecorder,
    /** The stream's clock (Date.now unless one was given where the class was built). */
    private readonly clock: () => number,
    private readonly events: StreamEmitter,
    seams: StreamSeams = {},
  ) {
    this.yieldAfterMs = seams.yieldAfterMs ?? YIELD_AFTER_MS
    this.metricsEnv = slotwiseEnv(env)
    const capacity = { full: () => this.inFlight >= BATCH_SIZE, waitMs: this.yieldAfterMs }
    this.alarm = new StreamAlarm(storage, store, recorder, retention, capacity, clock, events)
    this.settlements = new Settlements(
      (answers) => this.settle(answers, seams),
      () => this.alarm.rearm(),
      () => this.inFlight,
    )
  }

  /** settleAll, reported to the listeners before and after. */
  private settle(answers: readonly Answer[], seams: StreamSeams): core.Transition[] {
    const stream = this.stream ?? ""
    this.events.emit("settlement:started", { stream, answers })
    let transitions: core.Transition[]
    try {
      // One data point per settled batch, where the Worker binds SLOTWISE_METRICS (or a recorder is installed).
      const measure = measured(this.metricsEnv)
        ? (tally: Tally) => recordBatch(this.metricsEnv, { stream, ...tally })
        : undefined
      transitions = settleAll(this.store, stream, answers, seams.fenceRow, measure)
    } catch (error) {
      this.events.emit("settlement:failed", { stream, answers, error })
      throw error
    }
    if (this.events.listens("settlement:committed")) {
      const settled = answers.map((answer: SettlingAnswer, i) => ({
        ...answer,
        stale: !core.changed(transitions[i] as core.Transition),
      }))
      this.events.emit("settlement:committed", { stream, settled })
    }
    return transitions
  }

  /**
   * Never throws: a storage error is logged and arms one recovery alarm (1 s doubling to 60 s).
   * `rearms` is asked, once the batch settled, whether this tick re-arms: an alarm going on to its
   * next batch answers no, and its last batch re-arms.
   */
  async tick(refusal: Error | undefined, rearms: (report: TickReport) => boolean = always): Promise<TickReport> {
    const clock = this.clock
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
      const { claims, error: claimError } = this.claim(stream, report.now)
      report.claimed = claims.length
      const late = { yielded: false }
      const deadlines = new Deadlines()
      const settling = Promise.all(
        claims.map((claimed) => this.deliverAndSettle(stream, claimed, clock, report, late, deadlines)),
      )
      const errors = this.outlasts(claims) ? await within(settling, this.yieldAfterMs) : await settling
      if (errors === TIMED_OUT) {
        late.yielded = true
        report.inFlight = claims.length - report.delivered - report.retried - report.failed - report.stale
        void settling.then((answers) => {
          const rearmed = this.afterSettling(claimError ?? answers.find(Boolean), clock)
          this.events.emit("tick:drained", { stream, rearmed })
          return rearmed
        })
        this.events.emit("tick:yielded", { stream, inFlight: report.inFlight })
        if (claimError) throw claimError
      } else {
        const error = claimError ?? errors.find(Boolean)
        if (error) throw error
        this.alarm.healthy()
      }
      // Finished rows past the retention window go, a bounded batch per tick that runs anyway.
      report.swept = this.retention.sweep(report.now)
      report.alarm = rearms(report) ? await this.alarm.arm(clock()) : this.alarm.armed
    } catch (error) {
      report.error = describeError(error)
      report.alarm = await this.alarm.recover(error, clock())
    }
    report.rowsRead = this.store.counts.rowsRead - before.rowsRead
    report.rowsWritten = this.store.counts.rowsWritten - before.rowsWritten
    this.events.emit("tick:finished", { stream: this.stream ?? "", report })
    return report
  }

  /** Writes the `schedule.tick` line of `batches` ticks whose reports were summed (event-map.ts). */
  log(report: TickReport, batches = 1): void {
    logTicks(this.stream, report, batches)
  }

  /**
   * True when an attempt's deadline comes after the yield. Otherwise every attempt answers or is
   * timed out by then, and its settlement is synchronous: the batch needs no yield timer of its own.
   */
  private outlasts(claims: readonly Claimed[]): boolean {
    for (const { row } of claims)
      if ((this.consumers.get(row.consumer)?.timeoutMs ?? 0) > this.yieldAfterMs) return true
    return false
  }

  /** The claims of this tick within the dispatch capacity; a storage error claims none and is answered. */
  private claim(stream: string, now: number): { claims: Claimed[]; error?: unknown } {
    this.events.emit("tick:claiming", { stream, now })
    const leaseOf = (name: string) => this.consumers.get(name)?.leaseMs ?? UNDECLARED_CONSUMER_LEASE_MS
    try {
      const claims = claimDue(this.store, now, BATCH_SIZE - this.inFlight, leaseOf, stream)
      this.inFlight += claims.length
      if (this.events.listens("delivery:claimed"))
        for (const { row, claim } of claims)
          this.events.emit("delivery:claimed", { stream, consumer: row.consumer, claim })
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
    deadlines: Deadlines,
  ): Promise<unknown> {
    let result: core.DeliveryResult
    try {
      const consumer = this.consumers.get(row.consumer)
      // A rolling deploy may briefly lack a consumer: retried on the normal backoff, never failed for good.
      result = consumer
        ? await dispatch(
            consumer,
            core.deliveryOf(stream, row, clock()),
            { env: this.env, clock },
            undefined,
            deadlines,
          )
        : { status: "retry", reason: `unknown consumer "${row.consumer}"` }
    } catch (error) {
      result = { status: "retry", reason: `the delivery could not start: ${describeError(error)}` }
    } finally {
      this.inFlight--
    }
    try {
      const answer: Answer = { claim, result, now: clock() }
      const transition = await this.settlements.settle(answer, () => late.yielded)
      // After the tick yielded, this delivery is counted under inFlight in its report.
      if (late.yielded) return undefined
      if (!core.changed(transition)) report.stale++
      else if (result.status === "delivered") report.delivered++
      else if (transition.row?.state === "failed") report.failed++
      else report.retried++
      return undefined
    } catch (error) {
      return error
    }
  }

  /** After a yielded tick: the late results are written; re-arm, or recover from their error. */
  private async afterSettling(error: unknown, clock: () => number): Promise<void> {
    if (error) await this.alarm.recover(error, clock())
    else await this.alarm.arm(clock()).catch((armError) => this.alarm.recover(armError, clock()))
  }
}

const always = () => true
