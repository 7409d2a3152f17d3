import { database } from "../db/index.ts"
import { TIMED_OUT, within } from "../deadline.ts"
import { type SlotwiseEnv, slotwiseEnv } from "../env.ts"
import type { Job } from "../jobs/definition.ts"
import { make } from "../jobs/definition.ts"
import { listLeases } from "../jobs/lease.ts"
import { type Pause, pausesOfAll } from "../jobs/pauses.ts"
import { stream as streamClient } from "../schedules/client/stream-client.ts"
import type { ScheduleDefinition } from "../schedules/contract/definition.ts"
import { NAME, NAME_RULE } from "../schedules/contract/definition.ts"
import type { ScheduleView } from "../schedules/contract/view.ts"
import { staleStreams } from "../schedules/directory/stream-directory.ts"
import { tendSwitch } from "./dead-mans-switch.ts"
import { type Facts, findingsOf, resolutionOf } from "./findings.ts"
import { markSent, planIncidents, readIncidents, writeIncidents } from "./incidents.ts"
import { type BareNotice, dress, noticeId } from "./notice.ts"
import { AlertDefinitionError, type AlertKind, type AlertRule } from "./rule.ts"

/** The alerts job's name: it runs the rules each minute. */
export const ALERTS_JOB = "slotwise.alerts"
/** The stream alert notices go through unless another is named. */
export const ALERTS_STREAM = "slotwise-alerts"
/** Failed schedules a schedule-failed rule reads of its stream a run: an incident each. */
export const FAILED_PER_STREAM = 100
/** Streams a stream-overdue rule reads a run, the most overdue first. */
export const OVERDUE_READ = 50
/** The pauses a job-missed rule reads: a day's, more than its 20 newest slots of any job that runs hourly or more often. */
export const PAUSES_READ_MS = 24 * 60 * 60_000
/** Streams a run's schedule-failed rules may watch in all: an RPC each a minute. */
export const WATCHED_STREAMS_MAX = 24
/** How long a run waits for a watched stream's failed schedules; one that does not answer is judged next minute. */
export const WATCHED_STREAM_DEADLINE_MS = 4_000

/** What `Alerts.job` takes. */
export interface AlertOptions {
  /** The consumer each notice is delivered to (`Schedules.consumer<AlertNotice>`): your webhook, email or Slack. */
  consumer: string
  /** The stream the notices go through (default `slotwise-alerts`): their retries, keys and history are its. */
  stream?: string
  /** The rules, each declared next to what it watches (`Alerts.jobFailed`, …); ids must differ. */
  rules: readonly AlertRule[]
}

/** What one run of the alerts job did, as its run record reports it. */
export interface AlertReport {
  /** Incidents firing after this run. */
  open: number
  /** Notices this run put into the alert stream. */
  notices: number
  /** What the run did with the heartbeat's dead man's switch ("off" without a heartbeat-late rule). */
  deadMansSwitch: "armed" | "firing" | "resolved" | "off"
}

function checkOptions(options: AlertOptions): { consumer: string; stream: string; rules: readonly AlertRule[] } {
  if (typeof options?.consumer !== "string" || options.consumer.length === 0)
    throw new AlertDefinitionError(ALERTS_JOB, "consumer", "must name the consumer that delivers alert notices")
  const stream = options.stream ?? ALERTS_STREAM
  if (typeof stream !== "string" || !NAME.test(stream)) throw new AlertDefinitionError(ALERTS_JOB, "stream", NAME_RULE)
  if (!Array.isArray(options.rules) || options.rules.length === 0)
    throw new AlertDefinitionError(ALERTS_JOB, "rules", "must list at least one rule (Alerts.jobFailed, …)")
  const ids = new Set<string>()
  for (const rule of options.rules) {
    if (typeof rule?.id !== "string")
      throw new AlertDefinitionError(ALERTS_JOB, "rules", "must hold rules made by Alerts.*")
    if (ids.has(rule.id)) throw new AlertDefinitionError(rule.id, "rules", "is declared twice")
    ids.add(rule.id)
  }
  const watched = options.rules.filter((rule) => rule.kind === "schedule-failed").length
  if (watched > WATCHED_STREAMS_MAX)
    throw new AlertDefinitionError(
      ALERTS_JOB,
      "rules",
      `may watch at most ${WATCHED_STREAMS_MAX} streams for failed schedules, got ${watched}`,
    )
  return { consumer: options.consumer, stream, rules: options.rules }
}

function byJob(pauses: readonly Pause[]): Map<string, Pause[]> {
  const grouped = new Map<string, Pause[]>()
  for (const pause of pauses) grouped.set(pause.job, [...(grouped.get(pause.job) ?? []), pause])
  return grouped
}

/** Reads what the rules need, once: lease rows, pauses, the watched streams' failed schedules, overdue streams. */
async function factsFor(
  env: SlotwiseEnv,
  rules: readonly AlertRule[],
  now: number,
): Promise<Facts & { unavailable: Set<string> }> {
  const db = database(env.DB)
  const needs = (...kinds: AlertKind[]) => rules.some((rule) => kinds.includes(rule.kind))
  const overdueRule = rules.find((rule) => rule.kind === "stream-overdue")
  const [leases, pauses, overdue] = await Promise.all([
    needs("job-failed", "job-missed") ? listLeases(db) : [],
    needs("job-missed") ? pausesOfAll(db, now - PAUSES_READ_MS) : [],
    overdueRule ? staleStreams(env.DB, now - overdueRule.afterMs, OVERDUE_READ) : [],
  ])
  const failed = new Map<string, readonly ScheduleView[]>()
  // A stream that does not answer says nothing this run: its rule's incidents stay as they are.
  const unavailable = new Set<string>()
  for (const rule of rules) {
    if (rule.kind !== "schedule-failed") continue
    const listing = streamClient(env.SCHEDULES, rule.stream).list({ state: "failed", limit: FAILED_PER_STREAM })
    const page = await within(listing, WATCHED_STREAM_DEADLINE_MS).catch((): typeof TIMED_OUT => TIMED_OUT)
    if (page === TIMED_OUT) unavailable.add(rule.id)
    else failed.set(rule.stream, page.schedules)
  }
  return {
    now,
    leases: new Map(leases.map((lease) => [lease.name, lease])),
    pauses: byJob(pauses),
    failed,
    overdue: overdue.map((entry) => ({ name: entry.name, nextEligibleAt: entry.nextEligibleAt })),
    unavailable,
  }
}

/**
 * One run of the rules for `now` (the slot): judges each rule, opens and resolves incidents in D1, and upserts
 * each notice owed into the alert stream as a one-shot schedule due now, then marks it sent. A notice whose
 * upsert failed is owed again next minute. Tends the dead man's switch when a heartbeat-late rule is declared.
 */
export async function runAlerts(env: SlotwiseEnv, options: AlertOptions, now: number): Promise<AlertReport> {
  const { consumer, stream: streamName, rules } = checkOptions(options)
  const db = database(env.DB)
  const client = streamClient(env.SCHEDULES, streamName)
  const url = env.SLOTWISE_DASHBOARD_URL
  // Every notice upserted, the switch's included, is dressed for the person who reads it.
  const stream = {
    ...client,
    upsert: (d: ScheduleDefinition) => client.upsert({ ...d, payload: dress(d.payload as BareNotice, url) }),
  }
  const late = rules.find((rule) => rule.kind === "heartbeat-late")
  const deadMansSwitch = late ? await tendSwitch(stream, consumer, late.afterMs, now) : "off"
  const [facts, open] = await Promise.all([factsFor(env, rules, now), readIncidents(db)])
  const judged = rules.filter((rule) => !facts.unavailable.has(rule.id))
  const kinds = new Map(judged.map((rule) => [rule.id, rule.kind]))
  const plan = planIncidents(
    open,
    judged.flatMap((rule) => findingsOf(rule, facts)),
    kinds,
    now,
  )
  await writeIncidents(db, plan.writes)
  const sent = []
  const byId = new Map(rules.map((rule) => [rule.id, rule]))
  for (const owed of plan.notices) {
    const rule = byId.get(owed.rule)
    // A resolved notice says what resolved it; what opened it stays its cause.
    const notice: BareNotice =
      owed.status === "resolved" && rule
        ? { ...owed, cause: owed.summary, summary: resolutionOf(rule, owed.subject, facts) }
        : owed
    const id = noticeId(notice)
    // Asked first: a notice already delivered would start again if upserted twice (a lost mark, say).
    if ((await stream.get(id)) === undefined) await stream.upsert({ id, consumer, at: now, payload: notice })
    sent.push(notice)
  }
  await markSent(db, sent)
  // Each write is an incident opened (firing) or resolved, so the firing ones are counted by the difference.
  const firing = open.filter((incident) => incident.state === "firing").length
  const change = plan.writes.reduce((n, incident) => n + (incident.state === "firing" ? 1 : -1), 0)
  return { open: firing + change, notices: sent.length, deadMansSwitch }
}

/**
 * The alerts job: an exclusive job each minute that judges `rules` and delivers a notice (`AlertNotice`) when
 * an incident opens and when it resolves, never once a minute, as one-shot schedules of the alert stream to
 * `consumer`. Add it to the Worker's jobs (it needs the SCHEDULES binding) and the consumer to its consumers.
 * Throws AlertDefinitionError naming the field when the module loads.
 *
 * @example
 * ```ts
 * const alerts = Alerts.job({
 *   consumer: "ops.alert-webhook",
 *   rules: [
 *     Alerts.jobFailed(closeExpiredTrials, { slots: 3 }),
 *     Alerts.jobMissed(rollUpUsage, { slots: 5 }),
 *     Alerts.heartbeatLate({ after: "5 minutes" }),
 *     Alerts.scheduleFailed({ stream: "billing-webhooks" }),
 *     Alerts.streamOverdue({ after: "10 minutes" }),
 *   ],
 * })
 * export default { fetch: app.fetch, scheduled: Jobs.heartbeat(Jobs.registry([...jobs, alerts])) }
 * ```
 */
export function job(options: AlertOptions): Job {
  const checked = checkOptions(options)
  return make({
    name: ALERTS_JOB,
    cron: "* * * * *",
    exclusive: true,
    timeout: "30 seconds",
    run: async (slot, ctx) => {
      const report = await runAlerts(slotwiseEnv(ctx.env), checked, slot.getTime())
      ctx.report({ ...report })
    },
  })
}
