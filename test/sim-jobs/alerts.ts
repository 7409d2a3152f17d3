import { env } from "cloudflare:test"
import { vi } from "vitest"
import { runAlerts } from "../../src/infra/alerts/alert-job.ts"
import { noticeId } from "../../src/infra/alerts/notice.ts"
import { type AlertRule, jobFailed } from "../../src/infra/alerts/rule.ts"
import type { Job } from "../../src/infra/jobs/index.ts"
import { DEFAULT_RETENTION_MS } from "../../src/infra/schedules/contract/limits.ts"
import { Schedules } from "../../src/infra/schedules/index.ts"
import type { TickReport } from "../../src/infra/schedules/stream/event-map.ts"
import type { Violation } from "./checks.ts"
import type { World } from "./world.ts"

/** Runs a rule fires on: the newest two all failed. */
const SLOTS = 2

interface Incident {
  openedAt: number
  resolvedAt: number | null
}

/**
 * The alerts job's body (runAlerts, as the `slotwise.alerts` job runs it each minute) over the simulated jobs, one
 * `Alerts.jobFailed(job, { slots: 2 })` rule each, its notices in a stream of the world's own; and the model of it:
 * an incident opens when a job's newest two recorded runs failed and resolves at its next run that ran, each once.
 */
export class AlertsSim {
  private readonly rules: AlertRule[]
  private readonly stream: string
  /** Each job's incidents, oldest first, by job index. */
  private readonly incidents = new Map<number, Incident[]>()

  constructor(private readonly world: World) {
    this.rules = world.jobs.map((job: Job) => jobFailed(job, { slots: SLOTS }))
    this.stream = `alerts-${(world.jobs[0] as Job).name.replace(/[^a-z0-9-]/gi, "-")}`
  }

  async run(): Promise<Violation[]> {
    const now = this.world.wall
    // Through the simulator's D1 (paid plan's count, no fault): a planted fault reaches the alerts job too.
    const db = this.world.sim.invocation(1_000, "batch").db
    await runAlerts(
      { ...env, DB: db } as never,
      { consumer: "test.quick", stream: this.stream, rules: this.rules },
      { slot: now, now },
    )
    this.world.models.forEach((model, job) => {
      const newest = model.runs.slice(-SLOTS)
      const failing = newest.length === SLOTS && newest.every((outcome) => outcome !== "ran")
      const list = this.incidents.get(job) ?? []
      const open = list.at(-1)?.resolvedAt === null ? list.at(-1) : undefined
      if (failing && !open) list.push({ openedAt: now, resolvedAt: null })
      if (!failing && open) open.resolvedAt = now
      this.incidents.set(job, list)
    })
    return this.compare()
  }

  /**
   * The notice stream's alarm, set at the simulated time, is overdue in real time, and workerd may fire it once more
   * after the file ends, logging its sweep into a closed test run: sweep now, at real time, while logs are captured.
   */
  async stop(): Promise<void> {
    vi.useRealTimers()
    const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(this.stream)) as unknown as { tick(): Promise<TickReport> }
    for (let round = 0; round < 10 && (await stub.tick()).swept > 0; round++);
  }

  /** The incidents firing in D1, and the notices in the alert stream: one when each opened, one when each resolved. */
  private async compare(): Promise<Violation[]> {
    const ids = this.rules.map((rule) => rule.id)
    const { results } = await env.DB.prepare(
      `select rule, subject, opened_at, state from alert_incidents where rule in (${ids.map(() => "?").join(",")})`,
    )
      .bind(...ids)
      .all<{ rule: string; subject: string; opened_at: number; state: string }>()
    const firing = results.filter((row) => row.state === "firing").map((row) => `${row.subject}@${row.opened_at}`)
    const want: string[] = []
    const notices: string[] = []
    // A notice the stream delivered is swept DEFAULT_RETENTION_MS after; one sent within that span must still be held.
    const kept: string[] = []
    const keptAfter = this.world.wall - DEFAULT_RETENTION_MS
    this.incidents.forEach((list, job) => {
      const rule = this.rules[job] as AlertRule
      const subject = (this.world.jobs[job] as Job).name
      for (const incident of list) {
        if (incident.resolvedAt === null) want.push(`${subject}@${incident.openedAt}`)
        const notice = { kind: rule.kind, rule: rule.id, subject, openedAt: incident.openedAt }
        const opened = noticeId({ ...notice, status: "firing" })
        notices.push(opened)
        if (incident.openedAt > keptAfter) kept.push(opened)
        if (incident.resolvedAt === null) continue
        const resolved = noticeId({ ...notice, status: "resolved" })
        notices.push(resolved)
        if (incident.resolvedAt > keptAfter) kept.push(resolved)
      }
    })
    const violations: Violation[] = []
    const sorted = (keys: string[]) => JSON.stringify([...keys].sort())
    if (sorted(want) !== sorted(firing))
      violations.push({ rule: "alert-incidents", message: `firing: ${sorted(firing)}, the model ${sorted(want)}` })
    const stream = Schedules.stream(env.SCHEDULES, this.stream)
    const held: string[] = []
    let cursor: string | undefined
    do {
      const page = await stream.list({ limit: 500, ...(cursor ? { cursor } : {}) })
      held.push(...page.schedules.map((schedule) => schedule.id))
      cursor = page.cursor ?? undefined
    } while (cursor)
    const lost = kept.filter((id) => !held.includes(id))
    const unknown = held.filter((id) => !notices.includes(id))
    if (lost.length || unknown.length || new Set(held).size !== held.length)
      violations.push({
        rule: "alert-notices",
        message: `notices missing: ${sorted(lost)}; held but not in the model: ${sorted(unknown)}; held: ${held.length}`,
      })
    return violations
  }

  /** Incidents opened and resolved so far. */
  counts(): { opened: number; resolved: number } {
    const all = [...this.incidents.values()].flat()
    return { opened: all.length, resolved: all.filter((incident) => incident.resolvedAt !== null).length }
  }
}
