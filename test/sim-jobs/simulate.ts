import { AlertsSim } from "./alerts.ts"
import { checkHealth, checkHistory, checkLeases, checkStep, type Violation } from "./checks.ts"
import { KNOWN } from "./known.ts"
import type { JobModel } from "./model.ts"
import type { Plan, Step } from "./steps.ts"
import { World } from "./world.ts"

export interface Outcome {
  /** The first broken rule and the step that broke it, with all it broke. */
  failure?: { at: number; violation: Violation; all: Violation[]; recent: string[] }
  counters: Record<string, number>
  /** How often each tolerated (KNOWN) rule broke. */
  known: Record<string, number>
}

export interface SimulateOptions {
  /** Rules counted instead of failing the run (default: KNOWN). */
  tolerate?: readonly string[]
  /** Compares history and health every this many steps besides the jobs a step touched (default 25). */
  fullEvery?: number
  /** Planted faults (sabotage.test.ts): the world before its first step. */
  plant?: (world: World) => void
  trace?: (line: string) => void
  /** Called every `progressEvery` steps (long runs report how far they got). */
  progress?: (at: number, counters: Record<string, number>) => void
  progressEvery?: number
}

const MINUTE = 60_000

/** Plays `plan` on a fresh world and compares it with the model after every step; stops at the first broken rule. */
export async function simulate(plan: Plan, options: SimulateOptions = {}): Promise<Outcome> {
  const world = new World(plan)
  const alerts = new AlertsSim(world)
  const prefix = `${(world.models[0] as JobModel).name.replace(/\.j0$/, "")}.`
  const tolerate = options.tolerate ?? Object.keys(KNOWN)
  const counters: Record<string, number> = {}
  const known: Record<string, number> = {}
  const recent: string[] = []
  const count = (key: string, n = 1) => {
    counters[key] = (counters[key] ?? 0) + n
  }
  world.install()
  options.plant?.(world)
  try {
    for (let at = 0; at < plan.steps.length; at++) {
      const step = plan.steps[at] as Step
      count("steps")
      const violations: Violation[] = []
      const t0 = performance.now()
      try {
        if (step.op === "alerts") {
          count("alerts runs")
          violations.push(...(await alerts.run()))
        } else await play(world, step, count)
      } catch (error) {
        if (!(error instanceof StepError)) throw error
        violations.push(error.violation)
      }
      const line = `${at} @${new Date(world.wall).toISOString()} ${JSON.stringify(step)} -> ${JSON.stringify(world.expected.map((e) => [e.job, new Date(e.slot).toISOString().slice(11, 16), e.claim.fate, "reason" in e.claim ? e.claim.reason : e.outcome]))}`
      options.trace?.(line)
      recent.push(line)
      if (recent.length > 12) recent.shift()
      const touched = new Set(world.expected.map((e) => e.job))
      if ("job" in step) touched.add(step.job)
      const full = at % (options.fullEvery ?? 25) === 0 || at === plan.steps.length - 1
      const t1 = performance.now()
      violations.push(...checkStep(world, prefix), ...(await checkLeases(world, prefix)))
      const t2 = performance.now()
      // Every job's history on a full step; else one job the step touched, in turn (the rows hold what went wrong before).
      const some = [...touched].slice(at % Math.max(1, touched.size), (at % Math.max(1, touched.size)) + 1)
      for (const job of full ? world.models.keys() : some) violations.push(...(await checkHistory(world, job)))
      const t3 = performance.now()
      if (full) violations.push(...(await checkHealth(world)))
      count("ms play", t1 - t0)
      count("ms step+leases", t2 - t1)
      count("ms history", t3 - t2)
      count("ms health", performance.now() - t3)
      tally(world, count)
      const failing = violations.filter((violation) => {
        if (!tolerate.includes(violation.rule)) return true
        known[violation.rule] = (known[violation.rule] ?? 0) + 1
        return false
      })
      if ((at + 1) % (options.progressEvery ?? 1_000) === 0) options.progress?.(at + 1, counters)
      if (failing.length)
        return { failure: { at, violation: failing[0] as Violation, all: failing, recent }, counters, known }
    }
    const { opened, resolved } = alerts.counts()
    count("incidents opened", opened)
    count("incidents resolved", resolved)
    return { counters, known }
  } finally {
    await alerts.stop()
    world.dispose()
  }
}

/** What the step reached, so the suite can show the seeds reached every path the model judges. */
function tally(world: World, count: (key: string, n?: number) => void): void {
  for (const e of world.expected) {
    if (e.claim.fate === "won") count(e.release === "ok" ? (e.outcome ?? "ran") : "unrecorded")
    else if (e.claim.fate === "skipped") count(e.claim.reason)
    else count("taken")
    if (e.old && e.claim.fate === "won") count("old replica ran")
  }
  for (const run of world.executed) {
    if (run.budgetRefused) count("budget refused")
  }
  for (const invocation of world.invocations) count("queries", invocation.used)
}

async function play(world: World, step: Step, count: (key: string, n?: number) => void): Promise<void> {
  world.begin("acts" in step ? step.acts : {})
  const model = "job" in step ? (world.models[step.job] as JobModel) : undefined
  const expect = (what: string, status: number, want: number) => {
    if (status !== want)
      throw new StepError({ rule: "admin-answer", message: `${what} answered ${status}, the model ${want}` })
  }
  switch (step.op) {
    case "tick": {
      const next = world.wall - (world.wall % MINUTE) + MINUTE + step.offsetMs
      if (Math.floor(next / 3_600_000) !== Math.floor(world.wall / 3_600_000)) count("hour turns")
      world.setClock(next)
      return
    }
    case "beat":
      count(step.skewMs === 0 ? "beats" : "replica beats")
      count(`${step.mode} counted`)
      for (const fault of step.faults) count(`${fault.target} ${fault.kind}`)
      return world.beat(step.skewMs, step.mode, step.faults)
    case "handOff":
      count("hand-offs")
      return world.beat(0, "batch", [], true)
    case "deliver":
      count(step.again ? "redeliveries" : "deliveries")
      return world.deliver(step.count, step.again, step.mode, step.faults)
    case "pause": {
      const { status } = await world.admin("POST", `/jobs/${model?.name}/pause`, { reason: "simulated" })
      expect("pause", status, 200)
      if (!model?.paused()) model?.pauses.push({ from: world.wall, to: null })
      count("pauses")
      return
    }
    case "resume": {
      const { status } = await world.admin("POST", `/jobs/${model?.name}/resume`)
      const open = model?.pauses.find((pause) => pause.to === null)
      expect("resume", status, open ? 200 : 409)
      if (open) {
        open.to = world.wall
        count("resumes")
      }
      // Pauses ended two days ago say nothing of today's slots.
      if (model)
        model.pauses.splice(
          0,
          model.pauses.findIndex((p) => p.to === null || p.to > world.wall - 2 * 86_400_000),
        )
      return
    }
    case "runNow": {
      const status = await world.runNow(step.job)
      const claim = world.expected[0]?.claim
      expect("run now", status, claim?.fate === "won" ? 200 : 409)
      count("run now")
      return
    }
    case "release": {
      const verdict = model?.release(world.wall, step.force)
      const { status } = await world.admin("DELETE", `/leases/${model?.name}${step.force ? "?force=true" : ""}`)
      expect("release", status, verdict === "none" ? 404 : verdict === "held" ? 409 : 200)
      count(`release ${verdict}`)
      return
    }
    case "old":
      count("old replica")
      return world.oldRun(step.job, step.skewMs)
    case "alerts":
      return
  }
}

/** A step whose admin answer already disagrees with the model. */
export class StepError extends Error {
  constructor(readonly violation: Violation) {
    super(violation.message)
  }
}
