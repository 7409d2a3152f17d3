import { DurableObject } from "cloudflare:workers"
import { consumers } from "../../consumers.ts"
import { describeError, logLine } from "../log.ts"
import type { Delivery } from "./consumer.ts"
import { assertName, ScheduleDefinitionError, type ScheduleState, STATES, validateDefinition } from "./contract.ts"
import * as core from "./core.ts"
import { listStream } from "./directory.ts"
import { dispatch } from "./dispatch.ts"
import type { ScheduleEvent } from "./events.ts"
import { ok, type Reply, refuse } from "./reply.ts"
import type { ScheduleRow } from "./row.ts"
import { ScheduleStore } from "./store.ts"
import { idempotencyKey, type ScheduleView, viewOf } from "./view.ts"

/** At most this many rows are claimed and dispatched by one tick (ADR 0202). */
export const BATCH_SIZE = 32
export const RECOVERY_FIRST_MS = 1_000
export const RECOVERY_MAX_MS = 60_000
export const LIST_DEFAULT = 50
export const LIST_MAX = 500

export interface TickReport {
  now: number
  claimed: number
  delivered: number
  retried: number
  failed: number
  /** Results the settlement fence refused: they wrote nothing. */
  stale: number
  alarm: number | null
  error?: string
  rowsRead: number
  rowsWritten: number
}

/** Test hooks: an injected clock instead of Date.now(). */
export interface At {
  now?: number
}

/**
 * One stream of schedules: its SQLite holds the rows and events, its one alarm is the
 * smallest eligible_at. A thin shell: the rules live in core.ts, the SQL in store.ts.
 */
export class ScheduleStream extends DurableObject<Env> {
  private readonly store: ScheduleStore
  private refusal: Error | undefined
  private recoveryMs = 0

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    this.store = new ScheduleStore(ctx.storage)
    ctx.blockConcurrencyWhile(async () => {
      try {
        this.store.migrate()
      } catch (error) {
        this.refusal = error as Error
        logLine("error", "schedule stream refused its storage", { error: describeError(error) })
      }
    })
  }

  async upsert(stream: string, definition: unknown, at: At = {}): Promise<Reply<ScheduleView>> {
    const now = at.now ?? Date.now()
    const problem = this.check(stream)
    if (problem) return problem
    let spec: ReturnType<typeof validateDefinition>
    try {
      spec = validateDefinition(definition, now, (name) => consumers.get(name) !== undefined)
    } catch (error) {
      if (error instanceof ScheduleDefinitionError) return refuse("invalid", error.message, error.field)
      throw error
    }
    const transition = this.store.transaction(() => {
      if (this.store.meta("stream") === undefined) this.store.setMeta("stream", stream)
      const t = core.upsert(this.store.get(spec.id), spec, now)
      if (core.changed(t)) this.store.apply(t, now)
      return t
    })
    await this.arm()
    await this.listInDirectory(stream, now)
    return ok(viewOf(stream, transition.row as NonNullable<typeof transition.row>))
  }

  async get(stream: string, id: string): Promise<Reply<ScheduleView>> {
    const problem = this.check(stream) ?? this.checkId(id)
    if (problem) return problem
    const row = this.store.get(id)
    return row ? ok(viewOf(stream, row)) : refuse("not_found", `no schedule "${id}" in stream "${stream}"`, "id")
  }

  async list(
    stream: string,
    options: { state?: ScheduleState; limit?: number; cursor?: string } = {},
  ): Promise<Reply<{ schedules: ScheduleView[]; cursor: string | null }>> {
    const problem = this.check(stream)
    if (problem) return problem
    const limit = options.limit ?? LIST_DEFAULT
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) {
      return refuse("invalid", `limit must be an integer from 1 to ${LIST_MAX}`)
    }
    if (options.state !== undefined && !STATES.includes(options.state)) {
      return refuse("invalid", `state must be one of ${STATES.join(", ")}`)
    }
    if (options.cursor !== undefined && !isName(options.cursor)) return refuse("invalid", "cursor is not a schedule id")
    const rows = this.store.list({ ...options, limit })
    const schedules = rows.map((row) => viewOf(stream, row))
    return ok({ schedules, cursor: rows.length === limit ? (rows[rows.length - 1]?.id ?? null) : null })
  }

  async cancel(stream: string, id: string, at: At = {}): Promise<Reply<ScheduleView>> {
    return this.transition(stream, id, core.cancel, at)
  }

  async resume(stream: string, id: string, at: At = {}): Promise<Reply<ScheduleView>> {
    return this.transition(stream, id, core.resume, at)
  }

  async trigger(stream: string, id: string, at: At = {}): Promise<Reply<ScheduleView>> {
    return this.transition(stream, id, core.trigger, at)
  }

  async events(
    stream: string,
    options: { scheduleId?: string; limit?: number; before?: number } = {},
  ): Promise<Reply<ScheduleEvent[]>> {
    const problem =
      this.check(stream) ?? (options.scheduleId === undefined ? undefined : this.checkId(options.scheduleId))
    if (problem) return problem
    const limit = options.limit ?? LIST_DEFAULT
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) {
      return refuse("invalid", `limit must be an integer from 1 to ${LIST_MAX}`)
    }
    if (options.before !== undefined && !(Number.isSafeInteger(options.before) && options.before > 0)) {
      return refuse("invalid", "before must be an event seq, a positive integer")
    }
    return ok(this.store.events({ ...options, limit }))
  }

  override async alarm(): Promise<void> {
    await this.tick()
  }

  /**
   * Claims up to 32 due rows, dispatches them concurrently under their deadlines, settles
   * each behind the fence, and re-arms the alarm. Never throws: a storage error is logged
   * and arms one recovery alarm (1 s doubling to 60 s).
   */
  async tick(at?: number): Promise<TickReport> {
    const started = Date.now()
    // An injected `at` moves the whole tick in time; real elapsed time still passes within it.
    const clock = () => (at ?? started) + (Date.now() - started)
    const before = { ...this.store.counts }
    const report: TickReport = {
      now: clock(),
      claimed: 0,
      delivered: 0,
      retried: 0,
      failed: 0,
      stale: 0,
      alarm: null,
      rowsRead: 0,
      rowsWritten: 0,
    }
    try {
      if (this.refusal) throw this.refusal
      const claims = this.claimDue(report.now)
      report.claimed = claims.length
      const stream = claims.length ? (this.store.meta("stream") ?? "") : ""
      const results = await Promise.all(claims.map(({ row }) => this.deliver(stream, row, clock())))
      let storageError: unknown
      claims.forEach(({ claim }, i) => {
        try {
          this.count(report, this.settle(stream, claim, results[i] as core.Result, clock()))
        } catch (error) {
          storageError ??= error
        }
      })
      if (storageError) throw storageError
      this.recoveryMs = 0
      report.alarm = await this.arm()
    } catch (error) {
      report.error = describeError(error)
      report.alarm = await this.recover(error, clock())
    }
    report.rowsRead = this.store.counts.rowsRead - before.rowsRead
    report.rowsWritten = this.store.counts.rowsWritten - before.rowsWritten
    return report
  }

  /** Claims each due row in its own transaction, rechecking what the selection saw. */
  private claimDue(now: number) {
    return this.store.selectDue(now, BATCH_SIZE).flatMap((seen) => {
      const claimed = this.store.transaction(() => {
        const row = this.store.get(seen.id)
        const leaseMs = row ? (consumers.get(row.consumer)?.leaseMs ?? core.DEFAULT_LEASE_MS) : 0
        const c = core.claim(row, seen, now, crypto.randomUUID(), leaseMs)
        if (c) this.store.put(c.row)
        return c
      })
      return claimed ? [claimed] : []
    })
  }

  private deliver(stream: string, row: ScheduleRow, startedAt: number): Promise<core.Result> | core.Result {
    const consumer = consumers.get(row.consumer)
    if (!consumer) {
      return { status: "terminal", reason: `consumer "${row.consumer}" is not declared in src/consumers.ts` }
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

  /** Writes an attempt's result only if the fence still holds, in one transaction. */
  private settle(stream: string, claim: core.Claim, result: core.Result, now: number) {
    const t = this.store.transaction(() => {
      const settled = core.settle(this.store.get(claim.id), claim, result, now)
      if (core.changed(settled)) this.store.apply(settled, now)
      return settled
    })
    logLine(result.status === "delivered" ? "info" : "warn", "schedule.delivery", {
      stream,
      schedule: claim.id,
      occurrence: claim.occurrence,
      attempt: claim.attempts,
      outcome: core.changed(t) ? result.status : "stale",
      ...(result.status === "delivered" ? {} : { reason: result.reason }),
      ...(t.row?.state === "scheduled" ? { nextAt: t.row.nextAt, retryAt: t.row.retryAt } : { state: t.row?.state }),
    })
    return { t, result }
  }

  private count(report: TickReport, { t, result }: { t: core.Transition; result: core.Result }) {
    if (!core.changed(t)) report.stale++
    else if (result.status === "delivered") report.delivered++
    else if (t.row?.state === "failed") report.failed++
    else report.retried++
  }

  /** Sets the alarm to the smallest eligible_at, touching storage only when it changes. */
  private async arm(): Promise<number | null> {
    const next = this.store.nextEligibleAt() ?? null
    const current = await this.ctx.storage.getAlarm()
    if (next === null && current !== null) await this.ctx.storage.deleteAlarm()
    else if (next !== null && current !== next) await this.ctx.storage.setAlarm(next)
    return next
  }

  /** onError: one log line, and one recovery alarm whose delay doubles from 1 s to 60 s. */
  private async recover(error: unknown, now: number): Promise<number | null> {
    this.recoveryMs = this.recoveryMs ? Math.min(RECOVERY_MAX_MS, this.recoveryMs * 2) : RECOVERY_FIRST_MS
    const retryAt = now + this.recoveryMs
    logLine("error", "schedule stream onError", { error: describeError(error), recoveryInMs: this.recoveryMs })
    try {
      await this.ctx.storage.setAlarm(retryAt)
      return retryAt
    } catch (alarmError) {
      logLine("error", "schedule stream could not arm its recovery alarm", { error: describeError(alarmError) })
      return null
    }
  }

  private async transition(
    stream: string,
    id: string,
    step: (row: core.TransitionInput, now: number) => core.Transition,
    at: At,
  ): Promise<Reply<ScheduleView>> {
    const problem = this.check(stream) ?? this.checkId(id)
    if (problem) return problem
    const now = at.now ?? Date.now()
    const t = this.store.transaction(() => {
      const result = step(this.store.get(id), now)
      if (core.changed(result)) this.store.apply(result, now)
      return result
    })
    if (!t.row) return refuse("not_found", `no schedule "${id}" in stream "${stream}"`, "id")
    if (!core.changed(t) && t.refused) return refuse("conflict", `cannot do that: ${t.refused}`)
    await this.arm()
    return ok(viewOf(stream, t.row))
  }

  private check(stream: string): Reply<never> | undefined {
    if (this.refusal) return refuse("unavailable", this.refusal.message)
    if (!isName(stream)) return refuse("invalid", "stream must match [A-Za-z0-9._~-]{1,128}", "stream")
    const bound = this.store.meta("stream")
    if (bound !== undefined && bound !== stream)
      return refuse("conflict", `this object holds stream "${bound}"`, "stream")
    return undefined
  }

  private checkId(id: string): Reply<never> | undefined {
    return isName(id) ? undefined : refuse("invalid", "id must match [A-Za-z0-9._~-]{1,128}", "id")
  }

  /** Lists the stream in the D1 directory once; a D1 failure is logged and retried by a later upsert. */
  private async listInDirectory(stream: string, now: number): Promise<void> {
    if (this.store.meta("listed") === "1") return
    try {
      await listStream(this.env.DB, stream, now)
      this.store.setMeta("listed", "1")
    } catch (error) {
      logLine("warn", "schedule stream not yet listed in the directory", { stream, error: describeError(error) })
    }
  }
}

const isName = (value: unknown) => {
  try {
    assertName("id", value)
    return true
  } catch {
    return false
  }
}
