import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test"
import { Hono } from "hono"
import { vi } from "vitest"
import { admin } from "../../src/infra/admin/index.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import type { RunMeasure } from "../../src/infra/metrics/measure.ts"
import { useMetrics } from "../../src/infra/metrics/measure.ts"
import type { Job010 } from "../compat/0.1.0/engine.js"
import { Jobs as Jobs010 } from "../compat/0.1.0/engine.js"
import { type Claim, type Fault as Fate, JobModel, MINUTE } from "./model.ts"
import { type CountMode, type Fault, type Invocation, SimD1 } from "./sim-d1.ts"
import { type Act, type Executed, IDLE, leaseOf, names, oldJob, simJob, timeoutOf } from "./sim-jobs.ts"
import type { Plan } from "./steps.ts"

/** The handlers' D1 deadline in the simulator: a late statement (SimD1.lateMs) answers past it. */
export const DEADLINE_MS = 10
const LIMITS = { free: 50, paid: 1_000 }
const QUEUE = "SIM_JOBS"

export type Line = Record<string, unknown>

/** One attempt the model judged in a step: the line, metric and run it must have left. */
export interface Expected {
  job: number
  slot: number
  claim: Claim
  /** A won run's outcome and whether its release committed, answered in time. */
  outcome?: "ran" | "failed"
  release?: Fate
  /** Run by a 0.1.0 replica: its own lines (none for a refused claim), no metric. */
  old?: boolean
}

let worlds = 0

/** The jobs, the real handlers over the simulator's D1, the model beside them, and what each step left. */
export class World {
  readonly sim = new SimD1(env.DB)
  readonly models: JobModel[]
  readonly jobs: Job[]
  readonly registry: readonly Job[]
  private readonly old: Job010[]
  private readonly heartbeat: ReturnType<typeof Jobs.heartbeat>
  private readonly handOff: ReturnType<typeof Jobs.heartbeat>
  private readonly queue: ReturnType<typeof Jobs.queue>
  private readonly app: Hono
  readonly limit: number
  wall: number
  /** The messages the queue holds, oldest first. */
  pending: unknown[] = []
  /** What the model says a step's hand-off must have sent (job@slot), and what it sent. */
  sent: string[] = []
  sentBefore = 0
  /** What the current step left: lines, measures, runs, invocations, and what the model expects of them. */
  lines: Line[] = []
  measures: RunMeasure[] = []
  executed: Executed[] = []
  invocations: Invocation[] = []
  expected: Expected[] = []
  /** Slots of 0.1.0's runs (job@slot) not yet folded into an hour: today's next release of the job folds them. */
  readonly oldRuns = new Set<string>()
  /** Every job@slot whose body ran, over the whole run. */
  readonly ranEver = new Set<string>()
  readonly twice: string[] = []
  /** A planted fault (sabotage.test.ts): a line the Worker wrote that never reaches the logs. */
  drop: (line: Line) => boolean = () => false
  private acts: Record<number, Act> = {}
  private readonly restore: Array<() => void> = []

  constructor(readonly plan: Plan) {
    const prefix = `sim${++worlds}-${plan.seed}`
    this.wall = Date.UTC(2026, 0, 1) + (plan.seed % 1000) * 86_400_000 + 5_000
    this.limit = LIMITS[plan.plan]
    const hooks = {
      act: (name: string) => this.acts[this.indexOf(name)] ?? IDLE,
      ran: (seen: Executed) => {
        const key = `${seen.job}@${seen.slot}`
        if (this.ranEver.has(key)) this.twice.push(key)
        this.ranEver.add(key)
        this.executed.push(seen)
      },
    }
    this.jobs = plan.cadences.map((cadence, i) => simJob(`${prefix}.j${i}`, cadence, timeoutOf(i), hooks))
    this.models = plan.cadences.map(
      (cadence, i) => new JobModel(`${prefix}.j${i}`, leaseOf(i), (slot) => names(cadence, slot)),
    )
    this.old = plan.cadences.map((cadence, i) => oldJob(`${prefix}.j${i}`, cadence, timeoutOf(i), hooks))
    this.registry = Jobs.registry(this.jobs, { plan: plan.plan })
    this.heartbeat = Jobs.heartbeat(this.registry, { d1DeadlineMs: DEADLINE_MS })
    this.handOff = Jobs.heartbeat(this.registry, { d1DeadlineMs: DEADLINE_MS, queue: QUEUE })
    this.queue = Jobs.queue(this.registry, { d1DeadlineMs: DEADLINE_MS })
    this.app = new Hono().route("/admin", admin({ jobs: this.registry, consumers: [] }))
  }

  indexOf(name: string): number {
    return this.jobs.findIndex((job) => job.name === name)
  }

  install(): void {
    vi.useFakeTimers({ toFake: ["Date"], now: this.wall })
    this.sim.dbNow = this.wall
    const capture = (...args: unknown[]) => {
      if (typeof args[0] !== "string") return
      try {
        const line = JSON.parse(args[0])
        if (!this.drop(line)) this.lines.push(line)
      } catch {
        // not a structured line
      }
    }
    for (const method of ["debug", "log", "warn", "error"] as const) {
      const spy = vi.spyOn(console, method).mockImplementation(capture)
      this.restore.push(() => spy.mockRestore())
    }
    useMetrics({ run: (measure) => void this.measures.push(measure), batch: () => {} })
    this.restore.push(
      () => useMetrics(undefined),
      () => vi.useRealTimers(),
    )
  }

  dispose(): void {
    for (const undo of this.restore.splice(0).reverse()) undo()
  }

  /** A new step: what the previous one left is forgotten. */
  begin(acts: Record<number, Act> = {}): void {
    this.lines = []
    this.measures = []
    this.executed = []
    this.invocations = []
    this.expected = []
    this.sent = []
    this.sentBefore = this.pending.length
    this.acts = acts
  }

  setClock(wall: number): void {
    this.wall = wall
    this.sim.dbNow = wall
    vi.setSystemTime(wall)
  }

  /** An env for one invocation: its own D1 count and faults, the queue that keeps what is sent to it. */
  private envOf(mode: CountMode, faults: readonly Fault[] = [], limit = this.limit) {
    const invocation = this.sim.invocation(limit, mode, faults)
    this.invocations.push(invocation)
    const queue = {
      send: async (body: unknown) => void this.pending.push(body),
      sendBatch: async (messages: Array<{ body: unknown }>) => {
        for (const message of messages) this.pending.push(message.body)
      },
    }
    return { ...env, DB: invocation.db, SLOTWISE_METRICS: undefined, [QUEUE]: queue } as unknown as Env
  }

  async beat(skewMs: number, mode: CountMode, faults: readonly Fault[], queue = false): Promise<void> {
    const scheduledTime = this.wall + skewMs
    const ctx = createExecutionContext()
    const controller = createScheduledController({ scheduledTime, cron: "* * * * *" })
    await (queue ? this.handOff : this.heartbeat)(controller, this.envOf(mode, faults), ctx)
    await waitOnExecutionContext(ctx)
    const slot = scheduledTime - (((scheduledTime % MINUTE) + MINUTE) % MINUTE)
    const pausesRead = !faults.some((fault) => fault.target === "pauses")
    const attempts = this.models.flatMap((model, job) => (model.names(slot) ? [{ job, slot }] : []))
    if (!queue) return this.judge(attempts, faults, pausesRead)
    // Handed off: a job paused now is skipped here, with its line; the rest are sent, one message each.
    for (const { job } of attempts) {
      if ((this.models[job] as JobModel).paused())
        this.expected.push({ job, slot, claim: { fate: "skipped", reason: "paused" } })
      else this.sent.push(`${(this.jobs[job] as Job).name}@${new Date(slot).toISOString()}`)
    }
  }

  async deliver(count: number, again: boolean, mode: CountMode, faults: readonly Fault[]): Promise<void> {
    const bodies = this.pending.slice(0, count)
    if (!again) this.pending.splice(0, count)
    if (bodies.length === 0) return
    const messages = bodies.map((body, i) => ({
      id: `m${i}`,
      timestamp: new Date(this.wall),
      body,
      attempts: again ? 2 : 1,
      ack() {},
      retry() {},
    }))
    const ctx = createExecutionContext()
    await this.queue({ queue: "sim", messages, ackAll() {}, retryAll() {} } as never, this.envOf(mode, faults), ctx)
    await waitOnExecutionContext(ctx)
    const attempts = bodies.map((body) => {
      const { job, slot } = body as { job: string; slot: string }
      return { job: this.indexOf(job), slot: Date.parse(slot) }
    })
    this.judge(attempts, faults, false)
  }

  /**
   * The model's verdict on an invocation's attempts, then their settles. A job asked for several slots claims its
   * newest first (it does what is due as of it); the same slot asked again in one invocation is its twin's.
   */
  private judge(attempts: Array<{ job: number; slot: number }>, faults: readonly Fault[], heartbeat: boolean): void {
    const claimFault = faults.find((fault) => fault.target === "claim")?.kind ?? "ok"
    const release = faults.find((fault) => fault.target === "release")?.kind ?? "ok"
    const order = [...attempts].sort((a, b) => a.job - b.job || b.slot - a.slot)
    const asked = new Set<string>()
    const judged = order.map(({ job, slot }) => {
      const twin = asked.has(`${job}@${slot}`)
      asked.add(`${job}@${slot}`)
      const model = this.models[job] as JobModel
      // A twin's claim is its twin's answer; a claim that failed or answered late fails each run that asked it.
      const claim: Claim = !twin
        ? model.claim(slot, this.sim.dbNow, claimFault, release, heartbeat)
        : claimFault === "ok"
          ? { fate: "taken" }
          : { fate: "skipped", reason: claimFault === "fail" ? "claim failed" : "claim timed out" }
      return { job, slot, claim } as Expected
    })
    for (const expected of judged) {
      if (expected.claim.fate !== "won") continue
      const name = (this.jobs[expected.job] as Job).name
      const seen = this.executed.find((run) => run.job === name && run.slot === expected.slot)
      expected.outcome = seen?.threw || (seen === undefined && this.acts[expected.job]?.fail) ? "failed" : "ran"
      expected.release = release
      ;(this.models[expected.job] as JobModel).settle(expected.slot, expected.outcome, release)
      if (release !== "fail")
        for (const key of this.oldRuns) if (key.startsWith(`${expected.job}@`)) this.oldRuns.delete(key)
    }
    this.expected.push(...judged)
  }

  /** POST /admin/jobs/:name/pause, /resume, /run; DELETE /admin/leases/:name: the answer's status. */
  async admin(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers: Record<string, string> = { authorization: "Bearer test-admin-token" }
    if (body !== undefined) headers["content-type"] = "application/json"
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }
    const response = await this.app.request(`/admin${path}`, init, this.envOf("batch", [], LIMITS.paid))
    return { status: response.status, json: (await response.json()) as Record<string, unknown> }
  }

  /** An operator's run now: the job's slot of the wall clock, through admin. */
  async runNow(job: number): Promise<number> {
    const { status } = await this.admin("POST", `/jobs/${(this.jobs[job] as Job).name}/run`)
    const slot = this.wall - (this.wall % MINUTE)
    this.judge([{ job, slot }], [], false)
    return status
  }

  /** A 0.1.0 replica's run of the job's slot of its own clock: its claim on that clock, no hour row. */
  async oldRun(job: number, skewMs: number): Promise<void> {
    const clock = this.wall + skewMs
    const slot = clock - (((clock % MINUTE) + MINUTE) % MINUTE)
    const db = this.sim.invocation(this.limit, "batch", []).db
    await Jobs010.run(this.old[job] as Job010, new Date(slot), { env: { DB: db }, now: () => clock })
    const model = this.models[job] as JobModel
    // 0.1.0 writes no entry for a slot it did not run.
    const claim = model.claim(slot, clock, "ok", "fail", false)
    const expected: Expected = { job, slot, claim, old: true }
    if (claim.fate === "won") {
      model.settle(slot, "ran", "ok")
      this.oldRuns.add(`${job}@${slot}`)
      Object.assign(expected, { outcome: "ran", release: "ok" })
    }
    this.expected.push(expected)
  }
}
