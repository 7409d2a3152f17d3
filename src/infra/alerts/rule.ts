import { describeValue } from "../describe-value.ts"
import { type Duration, MINUTE_MS, toMillis } from "../duration.ts"
import type { Job } from "../jobs/contract/definition.ts"
import { RUN_HISTORY_LENGTH } from "../jobs/contract/record.ts"
import { TIMELINE_LENGTH } from "../jobs/history/timeline.ts"
import { NAME, NAME_RULE } from "../schedules/contract/limits.ts"

/** What an alert rule watches. */
export type AlertKind = "job-failed" | "job-missed" | "heartbeat-late" | "schedule-failed" | "stream-overdue"

const KINDS: readonly AlertKind[] = ["job-failed", "job-missed", "heartbeat-late", "schedule-failed", "stream-overdue"]

/** The kind a rule's id names (`job-failed.<job>` is a job-failed rule's), or undefined for an id no rule has. */
export function kindOfRule(id: string): AlertKind | undefined {
  const dot = id.indexOf(".")
  const kind = (dot === -1 ? id : id.slice(0, dot)) as AlertKind
  return KINDS.includes(kind) ? kind : undefined
}

/** A declared alert rule (`Alerts.jobFailed`, …): checked when the module loads, handed to `Alerts.job`. */
export type AlertRule =
  | { readonly id: string; readonly kind: "job-failed"; readonly job: Job; readonly slots: number }
  | { readonly id: string; readonly kind: "job-missed"; readonly job: Job; readonly slots: number }
  | { readonly id: string; readonly kind: "heartbeat-late"; readonly afterMs: number }
  | { readonly id: string; readonly kind: "schedule-failed"; readonly stream: string }
  | { readonly id: string; readonly kind: "stream-overdue"; readonly afterMs: number }

/** An alert rule `Alerts.*` refused, naming the rule and the field: thrown when the module loads. */
export class AlertDefinitionError extends Error {
  /** The field at fault. */
  readonly field: string
  /** Always "AlertDefinitionError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "AlertDefinitionError"

  constructor(rule: string, field: string, problem: string) {
    super(`alert ${rule}: ${field} ${problem}`)
    this.field = field
  }
}

/** A heartbeat or a stream is late no sooner than this: the alerts job itself runs once a minute. */
export const LATE_AFTER_MIN_MS = 2 * MINUTE_MS
/** The longest a lateness rule waits: a day. */
export const LATE_AFTER_MAX_MS = 24 * 60 * MINUTE_MS

function checkJob(rule: string, job: unknown, exclusiveOnly: boolean): Job {
  const declared = job as Job | undefined
  if (typeof declared?.name !== "string" || typeof declared.schedule?.nextAfter !== "function")
    throw new AlertDefinitionError(rule, "job", `must be a job made by Jobs.make, got ${describeValue(job)}`)
  if (exclusiveOnly && !declared.exclusive)
    throw new AlertDefinitionError(
      rule,
      "job",
      `"${declared.name}" is not exclusive: only an exclusive job's runs are recorded`,
    )
  return declared
}

function checkCount(rule: string, slots: unknown, max: number): number {
  if (typeof slots !== "number" || !Number.isInteger(slots) || slots < 1 || slots > max)
    throw new AlertDefinitionError(
      rule,
      "slots",
      `must be a whole number from 1 to ${max}, got ${describeValue(slots)}`,
    )
  return slots
}

function checkAfter(rule: string, after: unknown): number {
  const ms = toMillis(after)
  if (ms === undefined || ms < LATE_AFTER_MIN_MS || ms > LATE_AFTER_MAX_MS)
    throw new AlertDefinitionError(rule, "after", `must be from 2 minutes to 1 day, got ${describeValue(after)}`)
  return ms
}

/**
 * Fires when an exclusive job's newest `slots` runs all failed or timed out; resolves at its next run that ran.
 * `slots` is 1 to 20 (the runs a lease row keeps).
 *
 * @example
 * ```ts
 * Alerts.jobFailed(closeExpiredTrials, { slots: 3 })
 * ```
 */
export function jobFailed(job: Job, options: { slots: number }): AlertRule {
  const declared = checkJob("job-failed", job, true)
  const id = `job-failed.${declared.name}`
  return Object.freeze({
    id,
    kind: "job-failed",
    job: declared,
    slots: checkCount(id, options?.slots, RUN_HISTORY_LENGTH),
  })
}

/**
 * Fires when an exclusive job's newest `slots` slots were all missed (no run took them, and the job was not
 * paused); resolves when a run takes a slot again. `slots` is 1 to 20.
 *
 * @example
 * ```ts
 * Alerts.jobMissed(rollUpUsage, { slots: 5 })
 * ```
 */
export function jobMissed(job: Job, options: { slots: number }): AlertRule {
  const declared = checkJob("job-missed", job, true)
  const id = `job-missed.${declared.name}`
  return Object.freeze({
    id,
    kind: "job-missed",
    job: declared,
    slots: checkCount(id, options?.slots, TIMELINE_LENGTH),
  })
}

/**
 * A dead man's switch: fires when the alerts job, run by the heartbeat, has not run for `after` (2 minutes
 * to 1 day). The stream's Durable Object alarm fires it, not the heartbeat, so a heartbeat that stopped is
 * noticed; resolves when the heartbeat runs the alerts job again.
 *
 * @example
 * ```ts
 * Alerts.heartbeatLate({ after: "5 minutes" })
 * ```
 */
export function heartbeatLate(options: { after: Duration }): AlertRule {
  return Object.freeze({
    id: "heartbeat-late",
    kind: "heartbeat-late",
    afterMs: checkAfter("heartbeat-late", options?.after),
  })
}

/**
 * Fires once for each schedule of `stream` that went `failed` (a terminal answer, or its maxAttempts spent);
 * resolves when it is no longer failed (resumed, cancelled, removed or swept by retention).
 *
 * @example
 * ```ts
 * Alerts.scheduleFailed({ stream: "billing-webhooks" })
 * ```
 */
export function scheduleFailed(options: { stream: string }): AlertRule {
  const stream = options?.stream
  if (typeof stream !== "string" || !NAME.test(stream))
    throw new AlertDefinitionError("schedule-failed", "stream", NAME_RULE)
  return Object.freeze({ id: `schedule-failed.${stream}`, kind: "schedule-failed", stream })
}

/**
 * Fires for each stream whose recorded alarm is more than `after` past (2 minutes to 1 day): deliveries are
 * overdue, as admin's health counts them; resolves when the stream is on time again.
 *
 * @example
 * ```ts
 * Alerts.streamOverdue({ after: "10 minutes" })
 * ```
 */
export function streamOverdue(options: { after: Duration }): AlertRule {
  return Object.freeze({
    id: "stream-overdue",
    kind: "stream-overdue",
    afterMs: checkAfter("stream-overdue", options?.after),
  })
}
