import { DurableObject } from "cloudflare:workers"
import { type SlotwiseEnv, workerEnv } from "../../env.ts"
import { describeError, logLine } from "../../log.ts"
import { SLOTWISE_VERSION } from "../../version.ts"
import {
  type EventsOptions,
  type ListOptions,
  validateBackfillRange,
  validateEventsOptions,
  validateListOptions,
  validateReason,
  validateRetention,
} from "../contract/call-options.ts"
import { type ConsumerRegistry, consumerRegistry } from "../contract/consumer.ts"
import { checkDefinition } from "../contract/definition-check.ts"
import { ScheduleDefinitionError } from "../contract/definition-error.ts"
import type { HistoryRange, StreamHistory } from "../contract/history.ts"
import { NAME, NAME_RULE } from "../contract/limits.ts"
import { ok, type Reply, refuse } from "../contract/reply.ts"
import {
  type BackfillAnswer,
  type BackfillOptions,
  type CancelOptions,
  type NudgeReport,
  STREAM_PROTOCOL,
  type StreamProtocol,
  type StreamRpc,
  type UpsertOptions,
} from "../contract/rpc.ts"
import { SCHEDULE_ADDRESS } from "../contract/schedule-address.ts"
import type { ScheduleEvent } from "../contract/schedule-events.ts"
import type { ScheduleSpec } from "../contract/spec.ts"
import type { ScheduleView, StreamSummary } from "../contract/view.ts"
import { backfill } from "./backfill.ts"
import * as core from "./core/index.ts"
import { AlarmRecorder } from "./directory-recorder.ts"
import { StreamEmitter, summed, type TickReport } from "./event-map.ts"
import { newIncarnation } from "./idempotency-key.ts"
import { Retention } from "./retention.ts"
import { HOUR_MS, MINUTE_MS } from "./rollup.ts"
import { type ScheduleRow, viewOf } from "./row.ts"
import { seamsOf } from "./seams.ts"
import { ScheduleStore, SchemaVersionError } from "./store.ts"
import type { ScheduleStreamOptions } from "./stream-options.ts"
import { summarize } from "./summary.ts"
import { BATCH_SIZE, Ticker } from "./tick.ts"

/** How long one alarm goes on delivering a backlog before it hands over to the next alarm. */
export const ALARM_WORK_MS = 5_000

/**
 * One stream of schedules: its SQLite holds the rows and events, its one alarm is the smallest
 * eligible_at. A thin shell: the rules live in core.ts, the SQL in store.ts, the claim in
 * delivery-claim.ts, the settlement in settlement.ts, the alarm in alarm.ts. Built with its consumers by
 * `Schedules.durableObject`.
 */
export class ScheduleStream extends DurableObject<SlotwiseEnv> implements StreamRpc {
  /** @internal The stream's SQL; a test subclass may reach it. */
  protected readonly store: ScheduleStore
  /** @internal The delivery loop; a test subclass may reach it. */
  protected readonly ticker: Ticker
  private readonly retention: Retention
  private readonly consumers: ConsumerRegistry
  private readonly clock: () => number
  private readonly emitter: StreamEmitter
  private refusal: Error | undefined

  constructor(ctx: DurableObjectState, env: SlotwiseEnv, options: ScheduleStreamOptions) {
    super(ctx, env)
    const seams = seamsOf(options)
    this.consumers = consumerRegistry(options.consumers)
    // Read at each call, so a faked Date (vitest's timers) is honoured too.
    this.clock = options.clock ?? (() => Date.now())
    this.emitter = new StreamEmitter(options.on)
    this.store = new ScheduleStore(ctx.storage)
    this.retention = new Retention(this.store)
    // The recorder reads this.env at each write, so a test subclass may swap the stream's D1.
    const recorder = seams.recorder ?? new AlarmRecorder(this.store, () => this.env.DB)
    this.ticker = new Ticker(
      this.store,
      ctx.storage,
      workerEnv(env),
      this.consumers,
      this.retention,
      recorder,
      this.clock,
      this.emitter,
      seams,
    )
    ctx.blockConcurrencyWhile(async () => {
      this.migrate()
    })
  }

  /** Brings storage up to date; a failure refuses calls until a later call's migration succeeds. */
  private migrate(): Error | undefined {
    try {
      this.store.migrate()
      this.refusal = undefined
    } catch (error) {
      this.refusal = error as Error
      logLine("error", "schedule stream refused its storage", { error: describeError(error) })
    }
    if (this.refusal) this.emitter.emit("storage:refused", { error: this.refusal })
    else this.emitter.emit("storage:migrated", {})
    return this.refusal
  }

  /** A newer schema refuses for good (until newer code is deployed); any other storage error is tried again. */
  private ready(): Error | undefined {
    if (this.refusal === undefined || this.refusal instanceof SchemaVersionError) return this.refusal
    return this.migrate()
  }

  /** Creates or replaces a schedule from an unchecked definition; refuses it as `invalid`, naming the field. */
  async upsert(stream: string, definition: unknown, options: UpsertOptions = {}): Promise<Reply<ScheduleView>> {
    const now = this.clock()
    const problem = this.check(stream)
    if (problem) return problem
    let spec: ScheduleSpec
    let retentionMs: number | undefined
    try {
      // `firesOn` is a witness, not a trusted flag: a day the cron names is checked without a search,
      // and a wrong or missing one costs the search, so no caller stores a cron that never fires.
      spec = checkDefinition(definition, now, (name) => this.consumers.get(name) !== undefined, options.firesOn).spec
      if (options.retentionMs !== undefined) retentionMs = validateRetention(options.retentionMs)
    } catch (error) {
      return invalid(error)
    }
    let transition: core.Transition
    try {
      transition = this.store.transaction(() => {
        if (this.store.meta("stream") === undefined) this.store.setMeta("stream", stream)
        if (retentionMs !== undefined) this.retention.set(retentionMs)
        const existing = this.store.get(spec.id)
        const upserted = core.upsert(existing, spec, now, newIncarnation(), stream)
        if (core.changed(upserted)) this.store.apply(upserted, now, existing)
        return upserted
      })
    } catch (error) {
      this.retention.forget()
      throw error
    }
    await this.ticker.alarm.rearm(now)
    return ok(viewOf(stream, transition.row as NonNullable<typeof transition.row>))
  }

  /** The schedule of that id, or `not_found`. */
  async get(stream: string, id: string): Promise<Reply<ScheduleView>> {
    const problem = this.check(stream) ?? this.checkId(id)
    if (problem) return problem
    const row = this.store.get(id)
    return row ? ok(viewOf(stream, row)) : refuse("not_found", `no schedule "${id}" in stream "${stream}"`, "id")
  }

  /** A page of the stream's schedules by id; `cursor` is null on the last page. */
  async list(
    stream: string,
    options: ListOptions = {},
  ): Promise<Reply<{ schedules: ScheduleView[]; cursor: string | null }>> {
    const problem = this.check(stream)
    if (problem) return problem
    let checked: ReturnType<typeof validateListOptions>
    try {
      checked = validateListOptions(options)
    } catch (error) {
      return invalid(error)
    }
    const rows = this.store.list(checked)
    const schedules = rows.map((row) => viewOf(stream, row))
    return ok({ schedules, cursor: rows.length === checked.limit ? (rows.at(-1)?.id ?? null) : null })
  }

  /** Stops a scheduled or failed schedule, keeping `reason` on it; `conflict` when its state refuses it. */
  async cancel(stream: string, id: string, options: CancelOptions = {}): Promise<Reply<ScheduleView>> {
    let reason: string | null
    try {
      reason = validateReason(options?.reason)
    } catch (error) {
      return invalid(error)
    }
    return this.transition(stream, id, (row, now) => core.cancel(row, now, reason))
  }

  /**
   * Delivers once more each occurrence a recurring schedule's cadence names in a past range (backfill.ts): one
   * one-shot of its own per occurrence, paced by the same delivery loop. `dryRun` only counts them.
   */
  async backfill(stream: string, id: string, options: BackfillOptions): Promise<Reply<BackfillAnswer>> {
    const problem = this.check(stream) ?? this.checkId(id)
    if (problem) return problem
    const now = this.clock()
    let range: { from: number; to: number }
    try {
      range = validateBackfillRange(options, now)
    } catch (error) {
      return invalid(error)
    }
    const dryRun = options.dryRun === true
    const plan = this.store.transaction(() => {
      const parent = this.store.get(id)
      const run = Number(this.store.meta("backfill_run") ?? 0) + 1
      const exists = (key: string) => this.store.get(key) !== undefined
      const planned = backfill(parent, range, run, now, newIncarnation, exists, dryRun)
      if (!("report" in planned) || planned.changes.length === 0) return planned
      this.store.setMeta("backfill_run", String(run))
      for (const change of planned.changes) this.store.apply(change, now, change.row.backfillOf ? undefined : parent)
      return planned
    })
    if (!("report" in plan)) {
      if (!plan.row) return refuse("not_found", `no schedule "${id}" in stream "${stream}"`, "id")
      if (plan.field) return refuse("invalid", `${plan.field} ${plan.refused}`, plan.field)
      return refuse("conflict", `cannot backfill: ${plan.refused}`)
    }
    if (plan.changes.length > 0) await this.ticker.alarm.rearm(now)
    const parent = this.store.get(id) as ScheduleRow
    return ok({ schedule: viewOf(stream, parent), backfill: plan.report })
  }

  /** Starts a failed or cancelled schedule again at its current occurrence; `conflict` when its state refuses it. */
  async resume(stream: string, id: string): Promise<Reply<ScheduleView>> {
    return this.transition(stream, id, core.resume)
  }

  /** Makes the current occurrence due now, its place on the cadence kept; `conflict` unless scheduled. */
  async trigger(stream: string, id: string): Promise<Reply<ScheduleView>> {
    return this.transition(stream, id, core.trigger)
  }

  /** Deletes a finished or cancelled schedule now (a scheduled one is refused: cancel it first). */
  async remove(stream: string, id: string): Promise<Reply<ScheduleView>> {
    return this.transition(stream, id, core.remove)
  }

  /** The stream's event log, newest first, optionally of one schedule. */
  async events(stream: string, options: EventsOptions = {}): Promise<Reply<ScheduleEvent[]>> {
    const problem = this.check(stream)
    if (problem) return problem
    try {
      return ok(this.store.events(validateEventsOptions(options)))
    } catch (error) {
      return invalid(error)
    }
  }

  /** How many schedules in each state, how many retrying, and the overdue one due longest ago (see summary.ts). */
  async summary(stream: string): Promise<Reply<StreamSummary>> {
    const problem = this.check(stream)
    if (problem) return problem
    return ok(summarize(this.store, stream, this.clock()))
  }

  /** The RPC this stream speaks and the release it runs: a caller of another release names the skew with it. */
  async protocol(): Promise<StreamProtocol> {
    return { protocol: STREAM_PROTOCOL, release: SLOTWISE_VERSION }
  }

  /** The stream's deliveries, retries, failures and lateness over the last day per minute or 30 days per hour (rollup.ts). */
  async history(stream: string, range: HistoryRange = "day"): Promise<Reply<StreamHistory>> {
    const problem = this.check(stream)
    if (problem) return problem
    if (range !== "day" && range !== "month") return refuse("invalid", 'range must be "day" or "month"', "range")
    const now = this.clock()
    const stepMs = range === "day" ? MINUTE_MS : HOUR_MS
    return ok({ stream, now, range, stepMs, points: this.store.rollup.read(range, now) })
  }

  /**
   * A full batch means more may be due: the alarm keeps ticking, 32 rows at a time, for up to
   * ALARM_WORK_MS, so a backlog does not wait an alarm round trip per batch. Its first batch arms
   * the alarm, while the second goes on, and its last re-arms it; between them the alarm stands. It writes one
   * `schedule.tick` line for all its batches. Never throws.
   */
  override async alarm(): Promise<void> {
    const started = this.clock()
    let ticks = 0
    let goesOn = false
    // Decided before the tick re-arms, so a tick that did not re-arm is always followed by another.
    const rearms = (report: TickReport) => {
      goesOn = continues(report, this.clock() - started)
      // The first arm stores an alarm no later than what is still due, should this alarm not finish. The next
      // batch does not wait for it, so the arm may find all 32 slots taken: it is uncapped (not 30 s on).
      if (goesOn && ticks === 0) void this.ticker.alarm.rearm(this.clock(), true)
      return !goesOn
    }
    let report: TickReport
    let total: TickReport | undefined
    do {
      goesOn = false
      report = await this.ticker.tick(this.ready(), rearms)
      total = total === undefined ? report : summed(total, report)
      ticks++
    } while (goesOn && report.error === undefined)
    this.ticker.log(total, ticks)
  }

  /** Delivers what is due now, as the alarm does; see Ticker. Never throws. */
  async tick(): Promise<TickReport> {
    const report = await this.ticker.tick(this.ready())
    this.ticker.log(report)
    return report
  }

  /**
   * The watchdog's call for a stream whose recorded alarm is long past: ticks now if something
   * is overdue (the tick re-arms), otherwise re-arms the alarm from storage and rewrites the
   * directory's entry, so a stale entry does not bring the watchdog back.
   */
  async nudge(stream: string): Promise<Reply<NudgeReport>> {
    const problem = this.check(stream)
    if (problem) return problem
    const now = this.clock()
    try {
      // The directory named this object after the stream, so it is bound to it even when empty.
      if (this.store.meta("stream") === undefined) this.store.setMeta("stream", stream)
      const due = Math.min(this.store.nextEligibleAt() ?? Infinity, this.retention.nextSweepAt() ?? Infinity)
      if (due <= now) {
        const report = await this.tick()
        return ok({ ticked: true, alarm: report.alarm, delivered: report.delivered, error: report.error ?? null })
      }
      return ok({ ticked: false, alarm: await this.ticker.alarm.arm(now, true), delivered: 0, error: null })
    } catch (error) {
      logLine("error", "schedule stream could not be nudged", { stream, error: describeError(error) })
      return refuse("unavailable", describeError(error))
    }
  }

  private async transition(
    stream: string,
    id: string,
    step: (row: ScheduleRow | undefined, now: number) => core.Transition,
  ): Promise<Reply<ScheduleView>> {
    const problem = this.check(stream) ?? this.checkId(id)
    if (problem) return problem
    const now = this.clock()
    const transition = this.store.transaction(() => {
      const existing = this.store.get(id)
      const result = step(existing, now)
      if (core.changed(result)) this.store.apply(result, now, existing)
      return result
    })
    if (!transition.row) return refuse("not_found", `no schedule "${id}" in stream "${stream}"`, "id")
    if (!core.changed(transition) && transition.refused) {
      return refuse("conflict", `cannot do that: ${transition.refused}`)
    }
    await this.ticker.alarm.rearm(now)
    return ok(viewOf(stream, transition.row))
  }

  private check(stream: string): Reply<never> | undefined {
    const refusal = this.ready()
    if (refusal) return refuse("unavailable", refusal.message)
    if (!isName(stream)) return refuse("invalid", `stream ${NAME_RULE}`, "stream")
    const bound = this.store.meta("stream")
    if (bound !== undefined && bound !== stream)
      return refuse("conflict", `this object holds stream "${bound}"`, "stream")
    return undefined
  }

  private checkId(id: string): Reply<never> | undefined {
    return typeof id === "string" && SCHEDULE_ADDRESS.test(id) ? undefined : refuse("invalid", `id ${NAME_RULE}`, "id")
  }
}

/** An alarm goes on to its next batch after a full one that settled, within its working time. */
const continues = (report: TickReport, workedMs: number) =>
  report.claimed === BATCH_SIZE && report.error === undefined && report.inFlight === 0 && workedMs < ALARM_WORK_MS

const isName = (value: unknown) => typeof value === "string" && NAME.test(value)

/** A refused definition or option as a reply naming its field; anything else is thrown on. */
function invalid(error: unknown): Reply<never> {
  if (error instanceof ScheduleDefinitionError) return refuse("invalid", error.message, error.field)
  throw error
}
