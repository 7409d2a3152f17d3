import { eq } from "drizzle-orm"
import { database, jobsLeases } from "../db/index.ts"
import { type SlotwiseEnv, slotwiseEnv } from "../env.ts"
import type { Job } from "../jobs/contract/definition.ts"
import { make } from "../jobs/contract/definition.ts"
import { pausesSince } from "../jobs/protocol/pauses.ts"
import { stream as streamClient } from "../schedules/client/stream-client.ts"
import type { ScheduleDefinition } from "../schedules/contract/definition.ts"
import { NAME, NAME_RULE } from "../schedules/contract/limits.ts"
import { type SwitchOutcome, type SwitchRun, tendSwitch } from "./dead-mans-switch.ts"
import { factsFor } from "./facts.ts"
import { findingsOf, resolutionOf, unseen } from "./findings.ts"
import {
  type Incident,
  incidentsCount,
  incidentsOf,
  incidentsOfFindings,
  incidentsQuery,
  markSent,
  planIncidents,
  writeIncidents,
} from "./incidents.ts"
import { type BareNotice, dress, noticeId } from "./notice.ts"
import { AlertDefinitionError, type AlertRule } from "./rule.ts"
import { recordSwitch, switchRecordQuery } from "./switch-record.ts"

export { FAILED_PER_STREAM, OVERDUE_READ, PAUSES_READ_MS, WATCHED_STREAM_DEADLINE_MS } from "./facts.ts"

/** The alerts job's name: it runs the rules each minute. */
export const ALERTS_JOB = "slotwise.alerts"
/** The stream alert notices go through unless another is named. */
export const ALERTS_STREAM = "slotwise-alerts"
/** Streams a run's schedule-failed rules may watch in all: an RPC each a minute. */
export const WATCHED_STREAMS_MAX = 24

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
    // Its own failed notices would each open an incident whose notice fails in turn: one a minute, without end.
    if (rule.kind === "schedule-failed" && rule.stream === stream)
      throw new AlertDefinitionError(
        rule.id,
        "stream",
        `is the alert stream itself ("${stream}"): watch another stream`,
      )
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

/** One run of the alerts job: its slot, and the database's now or the run id that tells it (alerts/alert-job.ts). */
export interface AlertRun {
  slot: number
  /** The database's now; unset, read from the lease the run's slot claim wrote (its lease_until less lease_ms). */
  now?: number
  /** The run id that holds the alerts job's lease: the lease it wrote tells the database's now. */
  runId?: string
  /** How long a watched stream may take to answer (default facts.ts's WATCHED_STREAM_DEADLINE_MS). */
  watchDeadlineMs?: number
}

/**
 * The incidents' first page and how many there are, the switch's record and the database's now, in one D1 batch. The now is the one the slot
 * claim wrote with this run's lease (the database's clock, or a test's stand-in for it); without it, this
 * Worker's clock.
 */
async function stateOf(env: SlotwiseEnv, run: AlertRun) {
  const db = database(env.DB)
  const [incidents, count, record, leases] = await db.batch([
    incidentsQuery(db),
    incidentsCount(db),
    switchRecordQuery(db),
    db.select().from(jobsLeases).where(eq(jobsLeases.name, ALERTS_JOB)),
  ])
  const lease = leases[0]
  const claimed =
    lease &&
    run.runId !== undefined &&
    lease.holder === run.runId &&
    lease.leaseUntil !== null &&
    lease.leaseMs !== null
      ? lease.leaseUntil - lease.leaseMs
      : undefined
  const now = run.now ?? claimed ?? Date.now()
  return { open: incidentsOf(incidents), count: count[0]?.n ?? 0, record: record[0], now }
}

/** The alert stream's client, every notice it upserts (the switch's included) dressed for the person who reads it. */
function dressedStream(env: SlotwiseEnv, name: string) {
  const client = streamClient(env.SCHEDULES, name)
  const url = env.SLOTWISE_DASHBOARD_URL
  return {
    ...client,
    upsert: (d: ScheduleDefinition) => client.upsert({ ...d, payload: dress(d.payload as BareNotice, url) }),
  }
}

/**
 * The switch tended in the alert stream, and first disarmed in the one its record names when the alert stream was
 * renamed (it would fire there with nothing to push it back); while that one's delivery is under way, the new one
 * waits.
 */
async function tendSwitches(
  env: SlotwiseEnv,
  consumer: string,
  name: string,
  record: { armedFor: number; stream: string } | undefined,
  run: Pick<SwitchRun, "afterMs" | "slot" | "now">,
): Promise<SwitchOutcome> {
  const pauses = () => pausesSince(database(env.DB), ALERTS_JOB, (record?.armedFor ?? run.now) - (run.afterMs ?? 0))
  const tend = (stream: string, afterMs: number | undefined, armedFor: number | null) =>
    tendSwitch(dressedStream(env, stream), consumer, { ...run, afterMs, armedFor, pauses })
  if (record?.stream && record.stream !== name) {
    const old = await tend(record.stream, undefined, record.armedFor)
    if (old.step === "firing") return old
    // Moved with no rule left: the old record goes.
    const outcome = await tend(name, run.afterMs, null)
    return { ...outcome, armedFor: outcome.armedFor ?? null }
  }
  return tend(name, run.afterMs, record?.armedFor ?? null)
}

/**
 * One run of the rules for `run.slot`, judged at the database's now: judges each rule, opens and resolves
 * incidents in D1, and upserts each notice owed into the alert stream as a one-shot schedule due now, then marks
 * it sent. A notice whose upsert failed is owed again next minute. Tends the dead man's switch: armed while a
 * heartbeat-late rule is declared, disarmed (and resolved, if it fired) once none is.
 */
export async function runAlerts(env: SlotwiseEnv, options: AlertOptions, run: AlertRun): Promise<AlertReport> {
  const { consumer, stream: streamName, rules } = checkOptions(options)
  const db = database(env.DB)
  const stream = dressedStream(env, streamName)
  const { open: first, count, record, now } = await stateOf(env, run)
  const late = rules.find((rule) => rule.kind === "heartbeat-late")
  const switching = tendSwitches(env, consumer, streamName, record, { afterMs: late?.afterMs, slot: run.slot, now })
  const [facts, dms] = await Promise.all([factsFor(env, rules, run.slot, run.watchDeadlineMs), switching])
  const judged = rules.filter((rule) => !facts.unavailable.has(rule.id))
  const kinds = new Map(judged.map((rule) => [rule.id, rule.kind]))
  const declared = new Set(rules.map((rule) => rule.id))
  const findings = judged.flatMap((rule) => findingsOf(rule, facts))
  const open = await incidentsOfFindings(db, first, findings, count, now)
  const byId = new Map(rules.map((rule) => [rule.id, rule]))
  const notReached = (incident: Incident) => {
    const rule = byId.get(incident.rule)
    return rule !== undefined && unseen(rule, incident.subject, facts)
  }
  const plan = planIncidents(open, findings, kinds, now, declared, notReached)
  const switchWrite = dms.armedFor === undefined ? [] : [recordSwitch(db, dms.armedFor, streamName)]
  await writeIncidents(db, plan.writes, switchWrite)
  const sent = []
  for (const owed of plan.notices) {
    const rule = byId.get(owed.rule)
    // A resolved notice says what resolved it; what opened it stays its cause (planIncidents sets it).
    const notice: BareNotice =
      owed.status === "resolved" && rule ? { ...owed, summary: resolutionOf(rule, owed.subject, facts) } : owed
    // Its firing notice still retried: the resolved one waits (owed next minute), so it never overtakes it.
    if (notice.status === "resolved") {
      const firing = await stream.get(noticeId({ ...notice, status: "firing" }))
      if (firing?.state === "scheduled") continue
    }
    const id = noticeId(notice)
    // Asked first: a notice already delivered would start again if upserted twice (a lost mark, say).
    if ((await stream.get(id)) === undefined) await stream.upsert({ id, consumer, at: now, payload: notice })
    sent.push(notice)
  }
  await markSent(db, sent)
  // Each write is an incident opened (firing) or resolved, so the firing ones are counted by the difference.
  const firing = open.filter((incident) => incident.state === "firing").length
  const change = plan.writes.reduce((n, incident) => n + (incident.state === "firing" ? 1 : -1), 0)
  return { open: firing + change, notices: sent.length, deadMansSwitch: dms.step }
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
      const report = await runAlerts(slotwiseEnv(ctx.env), checked, { slot: slot.getTime(), runId: ctx.runId })
      ctx.report({ ...report })
    },
  })
}
