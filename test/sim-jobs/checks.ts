import { env } from "cloudflare:test"
import type { Job } from "../../src/infra/jobs/index.ts"
import { type JobModel, MINUTE } from "./model.ts"
import type { Expected, Line, World } from "./world.ts"

export interface Violation {
  /** A stable name: the shrinker keeps a candidate only if it breaks the same rule. */
  rule: string
  message: string
}

const iso = (slot: number) => new Date(slot).toISOString()
const sorted = (keys: string[]) => [...keys].sort()
const same = (a: string[], b: string[]) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))
/** What differs between two lists of keys, both ways. */
const diff = (want: string[], got: string[]) => {
  const missing = [...want]
  const extra: string[] = []
  for (const key of got) {
    const at = missing.indexOf(key)
    if (at >= 0) missing.splice(at, 1)
    else extra.push(key)
  }
  return `missing ${JSON.stringify(missing)}, unexpected ${JSON.stringify(extra)}`
}

/** The `job.run` line an expected attempt must have written: level, outcome, reason; none for a slot another run owns. */
function lineOf(world: World, e: Expected): string | undefined {
  const head = `${(world.jobs[e.job] as Job).name}|${iso(e.slot)}`
  const { claim } = e
  if (claim.fate === "taken") return undefined
  if (claim.fate === "skipped") {
    if (e.old) return undefined
    if (claim.reason === "paused") return `${head}|info|paused`
    const warn = claim.reason === "lease held" || claim.reason === "slot taken"
    return `${head}|${warn ? "warn" : "error"}|skipped|${claim.reason}`
  }
  const unrecorded = e.release !== "ok"
  const level = e.outcome === "ran" && !unrecorded ? "info" : "error"
  return `${head}|${level}|${e.outcome}${unrecorded ? "|releaseError" : ""}`
}

const lineKey = (line: Line) => {
  const head = `${line.job}|${line.slot}|${line.level}`
  if (line.outcome === "paused") return `${head}|paused`
  if (line.outcome === "skipped") return `${head}|skipped|${line.reason}`
  return `${head}|${line.outcome}${line.releaseError === undefined ? "" : "|releaseError"}`
}

/**
 * The rule a slot whose claim won breaks when it is said taken again: recorded, or unrecorded (its release failed)
 * with its lease then taken by a claim (today's, or a 0.1.0 replica's during a rollout) or an operator.
 */
const takenAgain = (model: JobModel, slot: number) =>
  model.recorded.has(slot) ? "slot-taken-again-recorded" : "slot-taken-again"

/** What one step left against what the model says it must: lines, metrics, runs, D1's count. */
export function checkStep(world: World, prefix: string): Violation[] {
  const violations: Violation[] = []
  const ours = world.lines.filter((line) => typeof line.job === "string" && line.job.startsWith(prefix))
  // A slot a run already had (ran, or gave up on a late claim), said taken again; or one slot said taken twice in a
  // step (a redelivered message of an older slot in the same batch): a second line and a second entry.
  const said = new Set<string>()
  const again = (line: Line) => {
    if (line.message !== "job.run" || line.reason !== "slot taken") return undefined
    const key = `${line.job}@${line.slot}`
    const model = world.models[world.indexOf(line.job as string)]
    const slot = Date.parse(line.slot as string)
    if (model?.claimed.has(slot)) return takenAgain(model, slot)
    if (said.has(key)) return "slot-taken-twice"
    said.add(key)
    return undefined
  }
  const got: string[] = []
  for (const line of ours) {
    const rule = again(line)
    if (rule) violations.push({ rule, message: `${line.job}@${line.slot}: said taken again` })
    else if (line.message === "job.run") got.push(lineKey(line))
  }
  const want = world.expected.map((e) => lineOf(world, e)).filter((key): key is string => key !== undefined)
  if (!same(want, got)) violations.push({ rule: "log-lines", message: `job.run lines: ${diff(want, got)}` })
  const failures = world.lines.filter((line) => line.message === "heartbeat failed" || line.message === "job.message")
  if (failures.length) violations.push({ rule: "handler-failed", message: JSON.stringify(failures[0]) })

  const handed = world.pending.slice(world.sentBefore).map((body) => {
    const { job, slot } = body as { job: string; slot: string }
    return `${job}@${slot}`
  })
  if (!same(world.sent, handed))
    violations.push({ rule: "hand-off", message: `messages sent: ${diff(world.sent, handed)}` })

  const measured = world.measures
    .filter((measure) => measure.job.startsWith(prefix))
    .map((m) => `${m.job}|${iso(m.slot)}|${m.outcome}`)
  const owed = world.expected.flatMap((e) => {
    const head = `${(world.jobs[e.job] as Job).name}|${iso(e.slot)}`
    if (e.old) return []
    if (e.claim.fate === "won") return [`${head}|${e.outcome}`]
    if (e.claim.fate === "skipped" && (e.claim.reason === "claim failed" || e.claim.reason === "claim timed out"))
      return [`${head}|skipped`]
    return []
  })
  if (!same(owed, measured)) violations.push({ rule: "metrics", message: `run measures: ${diff(owed, measured)}` })

  const ran = world.executed.map((run) => `${run.job}@${run.slot}`)
  const won = world.expected
    .filter((e) => e.claim.fate === "won")
    .map((e) => `${(world.jobs[e.job] as Job).name}@${e.slot}`)
  if (world.twice.length) violations.push({ rule: "ran-twice", message: `slots run twice: ${world.twice.join(", ")}` })
  else if (!same(won, ran)) violations.push({ rule: "runs", message: `job bodies run: ${diff(won, ran)}` })

  for (const invocation of world.invocations) {
    if (invocation.refused.length) {
      violations.push({
        rule: "d1-refused",
        message: `D1 refused ${invocation.refused.length} queries past the invocation's ${world.limit} (first: ${invocation.refused[0]?.slice(0, 80)})`,
      })
    }
  }
  for (const run of world.executed) {
    if (run.d1Refused > 0 && !world.invocations.some((invocation) => invocation.refused.length)) {
      violations.push({
        rule: "job-query-failed",
        message: `${run.job}@${iso(run.slot)}: a query failed outside the budget`,
      })
    }
  }
  // The budget refuses a job's query only when the plan's queries are nearly spent: what slotwise keeps is a few,
  // and each claim's release, counted a statement each (at most 3: its flush at an hour's turn, its release, a sweep).
  const claims = world.expected.filter((e) => !(e.claim.fate === "skipped" && e.claim.reason === "paused")).length
  const refusedEarly = world.invocations.some(
    (invocation) =>
      invocation.used < world.limit - 12 - 3 * claims && world.executed.some((run) => run.budgetRefused > 0),
  )
  if (refusedEarly && world.invocations.length === 1)
    violations.push({ rule: "budget-early", message: "a job's query was refused with most of the plan's queries left" })
  return violations
}

interface LeaseRow {
  name: string
  last_slot: number
  holder: string | null
  lease_until: number | null
}

/** The lease rows, as the model says they must be: the newest slot taken, and the lease held or not. */
export async function checkLeases(world: World, prefix: string): Promise<Violation[]> {
  const { results } = await env.DB.prepare(
    "select name, last_slot, holder, lease_until from jobs_leases where name like ?",
  )
    .bind(`${prefix}%`)
    .all<LeaseRow>()
  const rows = new Map(results.map((row) => [row.name, row]))
  const violations: Violation[] = []
  for (const model of world.models) {
    const row = rows.get(model.name)
    const want = Number.isFinite(model.lastSlot)
      ? `last_slot ${iso(model.lastSlot)}, ${model.holder ? `held until ${model.leaseUntil}` : "released"}`
      : "no row"
    const got = row
      ? `last_slot ${iso(Number(row.last_slot))}, ${row.holder !== null ? `held until ${row.lease_until}` : "released"}`
      : "no row"
    if (want !== got) violations.push({ rule: "lease", message: `${model.name}: lease ${got}, the model says ${want}` })
  }
  return violations
}

/** The slots of today that `model`'s cron names, oldest first (the model's own reading). */
function todaysSlots(model: JobModel, now: number): number[] {
  const day = now - (now % 86_400_000)
  const slots: number[] = []
  for (let slot = day; slot < day + 86_400_000; slot += MINUTE) if (model.names(slot)) slots.push(slot)
  return slots
}

interface HistoryAnswer {
  today: Array<{ slot: number; status: string }>
  hours: Array<{ hour: number; ran: number; failed: number; skipped: number; missed: number; paused: number }>
}

/** GET /admin/jobs/:name/history?days=1: each of today's slots, and each hour's counts, as the model says. */
export async function checkHistory(world: World, job: number): Promise<Violation[]> {
  const model = world.models[job] as JobModel
  const { status, json } = await world.admin("GET", `/jobs/${model.name}/history?days=1`)
  if (status !== 200) return [{ rule: "history-answer", message: `${model.name}: history answered ${status}` }]
  const answer = json as unknown as HistoryAnswer
  const now = world.wall
  const want = todaysSlots(model, now).map((slot) => `${iso(slot)} ${model.status(slot, now)}`)
  const got = answer.today.map((slot) => `${iso(slot.slot)} ${slot.status}`)
  const violations: Violation[] = []
  const wrong = want.filter((line, i) => line !== got[i])
  if (wrong.length || want.length !== got.length) {
    const first = want.findIndex((line, i) => line !== got[i])
    const slot = todaysSlots(model, now)[first] as number
    const rule = world.oldRuns.has(`${job}@${slot}`)
      ? "history-old-replica"
      : got[first]?.endsWith(" skipped") && model.claimed.has(slot) && !model.recorded.has(slot)
        ? takenAgain(model, slot)
        : "history-slot"
    violations.push({ rule, message: `${model.name}: today's slot says "${got[first]}", the model "${want[first]}"` })
  }
  const known = model.knownSince()
  for (const hour of answer.hours) {
    if (hour.hour < now - (now % 86_400_000)) continue
    const counts = { ran: 0, failed: 0, skipped: 0, missed: 0, paused: 0 } as Record<string, number>
    for (const [slot, outcome] of model.recorded) {
      if (slot >= hour.hour && slot < hour.hour + 3_600_000) counts[outcome] = (counts[outcome] ?? 0) + 1
    }
    for (let slot = hour.hour; slot < hour.hour + 3_600_000; slot += MINUTE) {
      if (!model.names(slot) || (known !== null && slot < known) || slot > now - MINUTE) continue
      const status = model.status(slot, now)
      if (status === "missed" || status === "paused") counts[status] = (counts[status] ?? 0) + 1
    }
    const wantHour = JSON.stringify(counts)
    const gotHour = JSON.stringify({
      ran: hour.ran,
      failed: hour.failed,
      skipped: hour.skipped,
      missed: hour.missed,
      paused: hour.paused,
    })
    if (wantHour !== gotHour && !violations.length) {
      const old = [...model.recorded.keys()].some(
        (slot) => slot >= hour.hour && slot < hour.hour + 3_600_000 && world.oldRuns.has(`${job}@${slot}`),
      )
      violations.push({
        rule: old ? "history-old-replica" : "history-hour",
        message: `${model.name} ${iso(hour.hour)}: ${gotHour}, the model ${wantHour}`,
      })
    }
  }
  return violations
}

/** GET /admin/health: the paused jobs and the leases held past their next slot, as the model says. */
export async function checkHealth(world: World): Promise<Violation[]> {
  const { status, json } = await world.admin("GET", "/health")
  if (status !== 200) return [{ rule: "health-answer", message: `health answered ${status}` }]
  const paused = (json.paused as Array<{ job: string }>).map((pause) => pause.job)
  const held = (json.heldLeases as Array<{ job: string }>).map((lease) => lease.job)
  const mine = (names: string[]) => names.filter((name) => world.models.some((model) => model.name === name))
  const wantPaused = world.models.filter((model) => model.paused()).map((model) => model.name)
  const wantHeld = world.models.filter((model) => model.heldPastNext(world.wall)).map((model) => model.name)
  const violations: Violation[] = []
  if (!same(wantPaused, mine(paused)))
    violations.push({ rule: "health-paused", message: `health's paused jobs: ${diff(wantPaused, mine(paused))}` })
  if (!same(wantHeld, mine(held)))
    violations.push({ rule: "health-held", message: `health's held leases: ${diff(wantHeld, mine(held))}` })
  return violations
}
