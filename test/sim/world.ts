import { env } from "cloudflare:test"
import { vi } from "vitest"
import { Schedules } from "../../src/infra/index.ts"
import { DEFAULT_RETENTION_MS } from "../../src/infra/schedules/contract/limits.ts"
import type { Reply } from "../../src/infra/schedules/contract/reply.ts"
import type { Claim } from "../../src/infra/schedules/stream/core/claim.ts"
import type { SettlingAnswer, StreamListeners } from "../../src/infra/schedules/stream/event-map.ts"
import {
  type TestScheduleStream,
  type TestStreamOptions,
  testStreamClass,
} from "../../src/infra/schedules/stream/testing.ts"
import {
  consumerNamed,
  consumers,
  malformedOutcome,
  resetConsumers,
  script,
  seen,
  waiting,
} from "../support/consumers.ts"
import { storedEvents, storedRows } from "../support/stored.ts"
import { T0 } from "../support/streams.ts"
import { checkStep, type StepRecord, type TickRecord } from "./invariants.ts"
import { type Attempt, Model } from "./model.ts"
import { checkOperation, type OperationStep, type SentRules, type SentTiming } from "./operations.ts"
import { checkOverlap } from "./overlap.ts"
import { type Plant, plant } from "./plant.ts"
import type { Event, Row } from "./rows.ts"
import { checkSettlement, type Settlement } from "./settlement.ts"
import { Spec, sentDefinition } from "./spec.ts"
import { type Behaviour, canonicalCron, type Id, type Step } from "./steps.ts"
import { type Fault, injectFaults, watchAlarm } from "./storage.ts"
import { traceLine } from "./trace.ts"

/** A yielded tick returns after this much (fake) wall time; consumer deadlines stay 300 ms and 30 s. */
export const YIELD_MS = 100
/** The fake wall clock starts here; only differences of it matter. */
const WALL_START = 1_000_000_000_000
/** While draining, how long past its row's eligible_at an owed occurrence may take to be delivered. */
const DRAIN_SLACK_MS = 5 * 60_000
/** The injected clock never goes below this, so no real alarm ever fires during a run. */
const EARLIEST = T0 - 7 * 86_400_000
/** Taken before any run fakes the timers: a real pause, when continuations wait on real I/O. */
const realSetTimeout = globalThis.setTimeout

const answers = {
  retry: () => Schedules.retry("sim retry"),
  terminal: () => Schedules.terminal("sim terminal"),
  malformed: malformedOutcome,
}

export interface WorldOptions {
  /** Called with one line per step (the step, then the clock, rows, events and alarm after it). */
  trace?: (line: string) => void
  /** Rules counted rather than failed (default: KNOWN). */
  tolerate?: readonly string[]
  /** Breaks the stream on purpose, to prove the oracle notices: "fence" lets stale results settle; a Plant, its storage. */
  sabotage?: "fence" | Plant
}

/**
 * One stream under simulation, driven from inside its Durable Object: the injected clock,
 * a fake wall clock for deadlines, SQL faults, evictions, and the oracle's view of storage.
 */
export class World {
  readonly model: Model
  /** The specification every delivery, answer and view is compared with. */
  readonly spec: Spec
  now = T0
  private epoch = 0
  private stream: TestScheduleStream
  /** The current generation's storage refusal, as its migrations reported it. */
  private refusal: Error | undefined
  /** Consumers the current deploy lacks. */
  private readonly absent = new Set<string>()
  /** The unwrapped exec: the oracle's own reads never count towards, or hit, a fault. */
  private readonly raw: SqlStorage["exec"]
  private readonly fault: Fault = { at: undefined, calls: 0, fired: false }
  private readonly pending = new Set<Promise<unknown>>()
  private readonly undo: Array<() => void> = []
  private recovering: { now: number; previousMs: number; delayMs: number } | undefined
  /** The model's mark at the start of each arm under way, by generation and the arm's number. */
  private readonly arming = new Map<string, number>()
  private behave: Partial<Record<Id, Behaviour>> = {}
  private settlements: Settlement[] = []
  /** The rows and last event before the settlement under way, as the oracle read them. */
  private settling: { before: Map<string, Row>; seq: number } | undefined
  private claimed: Attempt[] = []
  /** Events read in this step just before a statement deleted rows (and, with them, the events in their histories). */
  private swept: Event[] = []
  /** The tick of this step reached its claims. */
  private claiming = false
  private planted = false

  constructor(
    readonly name: string,
    private readonly state: DurableObjectState,
    private readonly options: WorldOptions = {},
  ) {
    this.model = new Model(options.tolerate)
    this.spec = new Spec(name, this.model)
    this.raw = state.storage.sql.exec.bind(state.storage.sql)
    this.stream = this.generation()
  }

  /**
   * A stream of the current deploy on this object's storage, on the world's clock, watched by the
   * oracle through its events (the object's own is never called).
   */
  private generation(): TestScheduleStream {
    const deployed = consumers.filter((consumer) => !this.absent.has(consumer.name))
    const Stream = testStreamClass({ consumers: deployed, clock: () => this.now, ...this.seams(this.epoch) })
    return new Stream(this.state, env)
  }

  async install(): Promise<void> {
    resetConsumers()
    vi.useFakeTimers({ now: WALL_START, toFake: ["setTimeout", "clearTimeout", "Date"] })
    this.undo.push(() => vi.useRealTimers())
    for (const method of ["log", "info", "warn", "error"] as const) {
      const spy = vi.spyOn(console, method).mockImplementation(() => {})
      this.undo.push(() => spy.mockRestore())
    }
    this.undo.push(
      injectFaults(this.state.storage.sql, this.fault, (query) => {
        // A row deleted takes its history along: what it holds is read first (a removal keeps it, a sweep does not).
        if (query.startsWith("DELETE FROM schedules")) this.swept.push(...this.eventsAfter(this.model.lastSeq))
      }),
      watchAlarm(this.state.storage, (value) => this.alarmWritten(value)),
    )
    // Listed in the D1 directory already: the simulation stays inside the object.
    this.raw(
      "INSERT INTO meta (key, value) VALUES ('stream', ?), ('listed', '1') ON CONFLICT DO NOTHING",
      this.name,
    ).toArray()
    // The constructor migrates inside blockConcurrencyWhile: let that finish first.
    await this.state.blockConcurrencyWhile(async () => {})
    this.model.rows = this.rows()
  }

  dispose(): void {
    for (const undo of this.undo.reverse()) undo()
    script.clear()
  }

  /** Runs one step, then checks every invariant against storage. */
  async run(step: Step): Promise<void> {
    const model = this.model
    const pre = model.rows
    const inFlightBefore = [...model.inFlight]
    this.settlements = []
    this.claimed = []
    this.swept = []
    this.fault.at = step.fault
    this.fault.calls = 0
    this.fault.fired = false
    let tick: TickRecord | undefined
    const due: Attempt[] = []
    const retention = this.retention()
    try {
      if (step.op === "tick") tick = await this.tick(step, inFlightBefore.length)
      else if (step.op === "clock") this.now = Math.max(EARLIEST, this.now + step.ms)
      else if (step.op === "answer") await this.answer(step, due)
      else if (step.op === "elapse") await this.elapse(step.ms)
      else if (step.op === "evict") await this.evict()
      else if (step.op === "deploy") await this.deploy(step)
      else if (step.op === "restart") await this.restart(step)
      else await this.operate(step, pre)
    } catch (error) {
      model.fail("harness", `${step.op} threw ${error instanceof Error ? error.stack : String(error)}`)
    } finally {
      this.fault.at = undefined
    }
    if (this.fault.fired) model.counters.faults++
    model.counters.steps++
    model.latestClock = Math.max(model.latestClock, this.now)
    const wall = Date.now()
    for (const attempt of [...inFlightBefore, ...this.claimed])
      if (attempt.epoch === this.epoch && wall >= attempt.deadline) due.push(attempt)
    const post = this.rows()
    const events = union(this.swept, this.eventsAfter(model.lastSeq))
    const record: StepRecord = {
      step,
      stream: this.name,
      now: this.now,
      pre,
      post,
      events,
      alarm: await this.state.storage.getAlarm(),
      settlements: this.settlements,
      due,
      retention,
      retentionAfter: this.retention(),
      faultFired: this.fault.fired,
      refusing: this.refusing(),
      inFlight: model.inFlight.size,
    }
    if (tick) record.tick = tick
    checkStep(record, model)
    const settledIds = new Set(this.settlements.filter((s) => s.wrote).map((s) => s.claim.id))
    this.spec.reconcile(pre, post, tick?.at, settledIds)
    model.rows = post
    const sabotage = this.options.sabotage
    if (sabotage && sabotage !== "fence" && !this.planted && plant(sabotage, step, this.settlements, post, this.raw)) {
      this.planted = true
      model.rows = this.rows()
    }
    model.lastSeq = events.at(-1)?.seq ?? model.lastSeq
    this.options.trace?.(traceLine(step, record))
  }

  /**
   * Answers every parked delivery, lets every deadline pass, then follows the alarm: each occurrence
   * owed must be delivered within DRAIN_SLACK_MS of when its row is next eligible.
   */
  async drain(): Promise<void> {
    const model = this.model
    model.horizon = this.now
    // A generation still refusing (a newer schema) is replaced, as a deploy of newer code would,
    // and that deploy has every consumer.
    if (this.refusing()) await this.run({ op: "evict" })
    for (const consumer of [...this.absent])
      await this.run({ op: "deploy", consumer: consumer as never, present: true })
    while (model.parked.size > 0 && model.violations.length === 0)
      await this.run({ op: "answer", pick: 0, answer: "ok" })
    await this.run({ op: "elapse", ms: 30_001 })
    const owedRows = () => [...model.owed.keys()].map((id) => model.rows.get(id)?.eligible_at ?? this.now)
    const limit = Math.max(this.now, ...owedRows()) + DRAIN_SLACK_MS
    for (let ticks = 0; model.owed.size > 0 && model.violations.length === 0 && this.now <= limit; ticks++) {
      if (ticks === 20_000) break
      await this.run({ op: "tick", alarm: true, behave: {} })
    }
    if (model.violations.length === 0) await this.spec.views((id) => this.stream.get(this.name, id))
    if (model.owed.size > 0 && model.violations.length === 0) {
      const owed = [...model.owed].map(([id, occurrence]) => `${id} occurrence ${occurrence}`)
      model.fail(
        "liveness",
        `following the alarm to ${this.now}, still undelivered: ${owed.join(", ")} (alarm ${await this.state.storage.getAlarm()}, rows ${JSON.stringify([...this.rows().values()])})`,
      )
    }
  }

  private refusing(): boolean {
    return this.refusal !== undefined
  }

  /** A deploy without a consumer (or with it again): a new generation of the stream, built with the deploy's consumers. */
  private async deploy(step: Extract<Step, { op: "deploy" }>): Promise<void> {
    if (step.present) this.absent.delete(step.consumer)
    else this.absent.add(step.consumer)
    await this.evict()
  }

  /** The number of the stream's last backfill, as stored (0: none yet). */
  private backfillRun(): number {
    const [row] = this.raw("SELECT value FROM meta WHERE key = 'backfill_run'").toArray()
    return row ? Number(row.value) : 0
  }

  /** The stream's retention window, as stored. */
  private retention(): number {
    const [row] = this.raw("SELECT value FROM meta WHERE key = 'retention_ms'").toArray()
    return row ? Number(row.value) : DEFAULT_RETENTION_MS
  }

  /** Cancels the schedule of a delivery in flight, then resumes it or upserts it due now: each call checked on its own. */
  private async restart(step: Extract<Step, { op: "restart" }>): Promise<void> {
    const out = [...this.model.inFlight].filter((attempt) => attempt.epoch === this.epoch)
    const attempt = out[step.pick % Math.max(1, out.length)]
    if (!attempt) return
    const id = attempt.id as Id
    const row = this.rows().get(id)
    if (row?.claim_token === attempt.token && (row.claim_until as number) > this.now) this.model.counters.withdrawn++
    await this.operate({ op: "cancel", id }, this.rows())
    if (step.via === "resume") await this.operate({ op: "resume", id }, this.rows())
    else {
      const consumer = (row?.consumer ?? "test.scripted") as Extract<Step, { op: "upsert" }>["consumer"]
      await this.operate({ op: "upsert", id, consumer, timing: { at: 0 }, payload: 0 }, this.rows())
    }
  }

  private async operate(step: OperationStep, pre: Map<string, Row>): Promise<void> {
    const before = pre.get(step.id)
    // A step may make several calls (restart): each is judged on its own events.
    const seq = this.lastSeq()
    let reply: Reply<unknown> | undefined
    let timing: SentTiming | undefined
    let rules: SentRules | undefined
    const rowsBefore = this.rows()
    const runBefore = this.backfillRun()
    try {
      if (step.op === "upsert") {
        const t = step.timing
        timing = "at" in t ? { at: t.at === "due" ? (before?.next_at ?? this.now) : this.now + t.at } : t
        rules = {
          ...(step.startAt === undefined ? {} : { startAt: this.now + step.startAt }),
          ...(step.endAt === undefined ? {} : { endAt: this.now + step.endAt }),
          ...(step.times === undefined ? {} : { times: step.times }),
          ...(step.jitter === undefined ? {} : { jitter: step.jitter }),
        }
        const definition = { id: step.id, consumer: step.consumer, payload: step.payload, ...timing, ...rules }
        const options = step.retention === undefined ? {} : { retentionMs: step.retention }
        this.countUpsert(before, timing)
        reply = await this.stream.upsert(
          this.name,
          step.maxAttempts === undefined ? definition : { ...definition, maxAttempts: step.maxAttempts },
          options,
        )
      } else if (step.op === "cancel") {
        reply = await this.stream.cancel(this.name, step.id, step.reason === undefined ? {} : { reason: step.reason })
      } else if (step.op === "backfill") {
        const range = { from: this.now + step.from, to: this.now + step.to, dryRun: step.dryRun }
        reply = await this.stream.backfill(this.name, step.id, range)
      } else {
        reply = await this.stream[step.op](this.name, step.id)
      }
    } catch (error) {
      if (!this.fault.fired) throw error
    }
    const events = this.eventsAfter(seq)
    const operation = {
      step,
      stream: this.name,
      rowsBefore,
      rowsAfter: this.rows(),
      runBefore,
      ...(timing === undefined ? {} : { timing }),
      ...(rules === undefined ? {} : { rules }),
      consumerMissing: step.op === "upsert" && this.absent.has(step.consumer),
      now: this.now,
      before,
      after: this.rows().get(step.id),
      events,
      reply,
      refusing: this.refusing(),
    }
    if (
      reply === undefined &&
      (events.length > 0 || JSON.stringify(operation.before) !== JSON.stringify(operation.after))
    )
      this.model.staleArm = this.model.mark()
    checkOperation(operation, this.model)
    const took = reply?.ok === true || events.some((e) => e.type === "schedule/set" && e.schedule_id === step.id)
    const sent = step.op === "upsert" && took && timing ? sentDefinition(step, timing, rules ?? {}) : undefined
    this.spec.operated(rowsBefore, operation.rowsAfter, sent && { id: step.id, def: sent })
  }

  /** Counts the upserts that reach the classes a stream once got wrong: a respelled cron, a retime under a claim. */
  private countUpsert(before: Row | undefined, timing: SentTiming): void {
    if (before?.state !== "scheduled") return
    if ("cron" in timing && before.kind === "cron" && before.cron !== timing.cron) {
      const same =
        canonicalCron(timing.cron, timing.timezone) === canonicalCron(before.cron as string, before.timezone as string)
      if (same) this.model.counters.respelled++
    }
    if ("at" in timing && before.kind !== "at" && before.claim_token !== null && timing.at === before.next_at)
      this.model.counters.retimedInFlight++
  }

  private async tick(step: Extract<Step, { op: "tick" }>, inFlightBefore: number): Promise<TickRecord> {
    if (step.alarm) {
      const alarm = await this.state.storage.getAlarm()
      const scheduled = [...this.model.rows.values()].filter((row) => row.state === "scheduled")
      const next = Math.min(...scheduled.map((row) => row.eligible_at))
      const write = this.model.alarmWrite
      const recovery = write?.recovery === true && write.value === alarm
      // An alarm later than the smallest eligible_at already broke a rule (a tolerated one): go by the rows.
      const at = alarm === null || (alarm > next && !recovery) ? next : alarm
      if (Number.isFinite(at) && at > this.now) this.now = at
    }
    script.clear()
    this.behave = step.behave
    for (const [id, behaviour] of Object.entries(step.behave)) script.set(id, [behaviour])
    const from = { seen: seen.length, waiting: waiting.length }
    const at = this.now
    let settled = false
    this.claiming = false
    const ticking = this.stream.tick().finally(() => {
      settled = true
    })
    const deliveries = () => seen.slice(from.seen)
    // A tick claims each schedule at most once: deliveries and parked waits are found by schedule id.
    const link = () => {
      const parked = waiting.slice(from.waiting)
      for (const attempt of this.claimed) {
        attempt.seen = deliveries().find((s) => s.delivery.scheduleId === attempt.id)
        if (attempt.behaviour !== "wait" || !attempt.seen) continue
        const entry = parked.find((w) => w.delivery.scheduleId === attempt.id)
        if (entry && !attempt.parked) {
          attempt.parked = entry
          this.model.parked.add(attempt)
        }
      }
    }
    // A consumer the deploy lacks is never called: its attempt is out once it settled.
    const out = (a: Attempt) =>
      a.missing
        ? a.status !== "in-flight"
        : a.seen !== undefined && (a.status !== "in-flight" || a.behaviour === "wait" || a.behaviour === "hang")
    await this.waitFor(() => {
      link()
      return settled || (this.claiming && this.claimed.every(out))
    }, "the tick's deliveries to answer or park")
    // Deliveries still out: the tick yields after YIELD_MS of wall time, as it would after 30 s.
    if (!settled && this.claimed.some((attempt) => attempt.status === "in-flight")) vi.advanceTimersByTime(YIELD_MS)
    const report = await ticking
    link()
    await this.waitFor(() => this.deadlinesKept(), "deliveries past their deadline to settle")
    script.clear()
    this.behave = {}
    return { at, report, claimed: this.claimed, deliveries: deliveries(), inFlightBefore }
  }

  private async answer(step: Extract<Step, { op: "answer" }>, due: Attempt[]): Promise<void> {
    const parked = [...this.model.parked]
    if (parked.length === 0) return
    const attempt = parked[step.pick % parked.length] as Attempt
    this.model.parked.delete(attempt)
    attempt.answered = step.answer
    attempt.answeredInTime = attempt.status === "in-flight"
    if (attempt.answeredInTime) due.push(attempt)
    else this.model.counters.lateAnswers++
    const entry = attempt.parked as NonNullable<Attempt["parked"]>
    if (step.answer === "ok") entry.answer(undefined)
    else if (step.answer === "throw") entry.fail(new Error("sim throw"))
    else entry.answer(answers[step.answer]())
    await this.waitFor(() => attempt.status !== "in-flight", "the answer to settle")
  }

  private async elapse(ms: number): Promise<void> {
    vi.advanceTimersByTime(ms)
    await this.waitFor(() => this.deadlinesKept(), "deliveries past their deadline to settle")
  }

  /** The object loses its memory: its timers and in-flight deliveries die with it. */
  private async evict(): Promise<void> {
    vi.clearAllTimers()
    for (const attempt of this.model.inFlight) attempt.status = "lost"
    this.model.counters.lostLeases += this.model.inFlight.size
    this.model.inFlight.clear()
    this.model.parked.clear()
    this.pending.clear()
    this.epoch++
    this.model.counters.evictions++
    this.stream = this.generation()
    // The constructor migrates inside blockConcurrencyWhile: let that finish within this step.
    await this.state.blockConcurrencyWhile(async () => {})
    // Only a stored schema newer than the code is a reason to refuse for good: the next call migrates again.
    const refused = this.refusal
    if (refused && refused.name !== "SchemaVersionError") {
      await this.stream.get(this.name, "s0")
      if (this.refusal)
        this.model.fail("refused-for-good", `a generation refuses every call after a transient error: ${refused}`)
    }
  }

  /**
   * The oracle's view of one generation: its claims, settlements, late re-arms, recoveries and
   * storage through the stream's events, and the seams of a simulation (testing.ts).
   */
  private seams(epoch: number): Omit<TestStreamOptions, "consumers"> {
    const on: StreamListeners = {
      "storage:migrated": () => {
        if (epoch === this.epoch) this.refusal = undefined
      },
      "storage:refused": ({ error }) => {
        if (epoch === this.epoch) this.refusal = error
      },
      "tick:claiming": () => {
        this.claiming = true
      },
      "delivery:claimed": ({ consumer, claim }) => this.claimedOne(epoch, consumer, claim),
      "settlement:started": () => {
        this.settling = { before: this.rows(), seq: this.lastSeq() }
      },
      "settlement:committed": ({ settled }) =>
        this.settled(
          epoch,
          settled,
          settled.map(({ stale }) => !stale),
        ),
      "settlement:failed": ({ answers }) => this.settled(epoch, answers, undefined),
      "tick:drained": ({ rearmed }) => {
        this.pending.add(rearmed)
        const forget = () => this.pending.delete(rearmed)
        rearmed.then(forget, forget)
      },
      "alarm:arming": ({ arm }) => {
        this.arming.set(`${epoch}:${arm}`, this.model.mark())
      },
      "alarm:armed": ({ arm }) => {
        this.model.armed(this.arming.get(`${epoch}:${arm}`) as number)
        this.arming.delete(`${epoch}:${arm}`)
      },
      "recovery:arming": ({ now, previousMs, delayMs }) => {
        this.recovering = { now, previousMs, delayMs }
      },
      "recovery:armed": () => {
        this.recovering = undefined
      },
    }
    return {
      on,
      yieldAfterMs: YIELD_MS,
      // The D1 directory lies outside the object: the simulation keeps to the stream's own storage.
      recorder: { record: () => Promise.resolve(), retryAt: () => null },
      // Sabotage: the fence reads the live row as if it held the settling claim.
      ...(this.options.sabotage === "fence"
        ? {
            fenceRow: (row, claim) =>
              row?.claimToken
                ? { ...row, claimToken: claim.token, claimUntil: Math.max(row.claimUntil ?? 0, claim.claimUntil) }
                : row,
          }
        : {}),
    }
  }

  private claimedOne(epoch: number, rowConsumer: string, claim: Claim): void {
    if (epoch !== this.epoch) this.model.fail("dead-generation", `an evicted generation claimed ${claim.id}`)
    else this.spec.claimed(claim.id, claim.occurrence, claim.nextAt, this.now)
    const incarnation = this.model.incarnation.get(claim.id) ?? 0
    checkOverlap(this.model, claim, epoch, incarnation, this.now)
    const consumer = this.absent.has(rowConsumer) ? undefined : consumerNamed(rowConsumer)
    if (!consumer) this.model.counters.missingConsumer++
    const attempt: Attempt = {
      token: claim.token,
      id: claim.id,
      occurrence: claim.occurrence,
      nextAt: claim.nextAt,
      attempts: claim.attempts,
      claimUntil: claim.claimUntil,
      epoch,
      incarnation,
      behaviour: this.behave[claim.id as Id] ?? "ok",
      consumer: rowConsumer,
      missing: consumer === undefined,
      deadline: consumer ? Date.now() + consumer.timeoutMs : Number.POSITIVE_INFINITY,
      status: "in-flight",
    }
    this.model.attempts.set(claim.token, attempt)
    this.model.inFlight.add(attempt)
    this.claimed.push(attempt)
  }

  /**
   * Judges a group of answers settled together, each on its own: the oracle reads every row
   * before and after the group (the answers name distinct schedules) and each one's events.
   */
  private settled(epoch: number, answers: readonly SettlingAnswer[], wrote: readonly boolean[] | undefined): void {
    const { before, seq } = this.settling ?? { before: new Map<string, Row>(), seq: this.lastSeq() }
    this.settling = undefined
    const after = this.rows()
    const events = this.eventsAfter(seq)
    this.model.counters.groups++
    if (answers.length > 1) this.model.counters.grouped += answers.length
    if (new Set(answers.map(({ claim }) => claim.id)).size !== answers.length)
      this.model.fail(
        "settle-group",
        `one group settled two answers of one schedule: ${answers.map((a) => a.claim.id)}`,
      )
    answers.forEach(({ claim, result, now }, i) => {
      const attempt = this.model.attempts.get(claim.token)
      if (attempt) this.model.inFlight.delete(attempt)
      const settlement: Settlement = {
        attempt,
        epoch,
        claim,
        result,
        now,
        wall: Date.now(),
        before: before.get(claim.id),
        after: after.get(claim.id),
        events: events.filter((event) => event.schedule_id === claim.id),
        wrote: wrote?.[i] === true,
        threw: wrote === undefined,
        stream: this.name,
      }
      this.settlements.push(settlement)
      if (settlement.wrote && attempt && !this.claimed.includes(attempt))
        this.model.lateSettled.set(claim.id, this.model.mark())
      checkSettlement(settlement, this.epoch, this.model)
      if (settlement.wrote) this.spec.settled(claim.id, claim, result.status, now, settlement.after)
    })
    // Nothing outside the group's rows changed.
    for (const [id, row] of after) {
      if (!answers.some(({ claim }) => claim.id === id) && JSON.stringify(row) !== JSON.stringify(before.get(id)))
        this.model.fail("settle-group", `a group's settlement changed ${id}, which it does not settle`)
    }
  }

  private alarmWritten(value: number | null): void {
    const recovering = this.recovering
    this.model.alarmWrite = { value, recovery: recovering !== undefined }
    if (!recovering) return
    this.model.counters.recoveries++
    // One recovery alarm, 1 s doubling to 60 s, from the time of the error.
    const delay = recovering.previousMs ? Math.min(60_000, recovering.previousMs * 2) : 1_000
    if (value !== recovering.now + delay || recovering.delayMs !== delay)
      this.model.fail("recovery", `recovery alarm ${value} after an error at ${recovering.now}, expected +${delay} ms`)
  }

  private rows(): Map<string, Row> {
    const rows = storedRows({ exec: this.raw }) as unknown as Row[]
    return new Map(rows.map((row) => [row.id, row]))
  }

  private lastSeq(): number {
    return storedEvents({ exec: this.raw }).at(-1)?.seq ?? 0
  }

  private eventsAfter(seq: number): Event[] {
    return storedEvents({ exec: this.raw }).filter((event) => event.seq > seq)
  }

  /** Lets every continuation that needs no timer run. */
  private async microtasks(): Promise<void> {
    for (let i = 0; i < 100; i++) await null
  }

  /** No dispatched delivery of this generation is past its deadline without having settled. */
  private deadlinesKept(): boolean {
    const wall = Date.now()
    for (const a of this.model.inFlight) if (a.epoch === this.epoch && a.seen && wall >= a.deadline) return false
    return true
  }

  /** Waits until `done` and every late re-arm are through: microtasks first, real wall time only if need be. */
  private async waitFor(done: () => boolean, what: string): Promise<void> {
    for (let round = 0; ; round++) {
      await this.microtasks()
      // The end of an event loop turn: answers waiting to be settled together are settled now.
      vi.advanceTimersByTime(0)
      await this.microtasks()
      if (this.pending.size) {
        await Promise.all(this.pending)
        continue
      }
      if (done()) return
      if (round === 200) throw new Error(`gave up waiting for ${what}`)
      await new Promise((resolve) => realSetTimeout(resolve, 1))
    }
  }
}

/** Both lists' events, each once, by seq. */
function union(a: readonly Event[], b: readonly Event[]): Event[] {
  const bySeq = new Map([...a, ...b].map((event) => [event.seq, event]))
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq)
}
