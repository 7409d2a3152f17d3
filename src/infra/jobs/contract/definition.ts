import { type CronSchedule, CronSyntaxError, parseCron } from "../../cron.ts"
import { describeValue } from "../../describe-value.ts"
import { type Duration, MINUTE_MS, toMillis } from "../../duration.ts"
import type { Logger } from "../../log.ts"
import type { OnceResult, OnceStatement } from "../../once.ts"

/** What a job's `run` is handed beside its slot: the env, the timeout's signal, its logger, and its exactly-once writes. */
export interface JobContext {
  /** The Worker's env. */
  env: Cloudflare.Env
  /** Aborted when the job's timeout passes; a cooperative job stops its work then. */
  signal: AbortSignal
  /** This run's id, the lease's holder: in its log line and span, and in admin's runs. */
  runId: string
  /** The slot this run processes (the UTC minute its cron named), the same as `run`'s first argument. */
  slot: Date
  /** Writes lines that carry the job, the slot and the run id. */
  log: Logger
  /**
   * Records a small JSON object (at most 1 KiB) with this run: an exclusive job's release stores
   * it beside the run's outcome, and admin shows it. The last call wins; a summary that is not a
   * JSON object or is too large throws a RangeError naming `report`.
   *
   * @example
   * ```ts
   * run: async (slot, ctx) => ctx.report({ closed: await closeDueAt(ctx.env, slot) })
   * ```
   */
  report(summary: Record<string, unknown>): void
  /**
   * Commits the statements' D1 writes together with `itemKey` (namespaced by this job's name), in one D1
   * batch (a transaction): an item already committed, by this run or an overlapping one, writes nothing and
   * answers `duplicate`. Statements are prepared on `env.DB` (D1 statements or drizzle queries); any other
   * D1 failure is thrown, having written nothing, and never retried. Keys are kept 30 days (README,
   * "Exactly-once effects on D1").
   *
   * @example
   * ```ts
   * run: async (slot, ctx) => {
   *   for (const invoice of await dueInvoices(ctx.env, slot)) {
   *     await ctx.once(`invoice:${invoice.id}`, [
   *       ctx.env.DB.prepare("UPDATE invoices SET charged_at = ? WHERE id = ?").bind(slot.getTime(), invoice.id),
   *       ctx.env.DB.prepare("INSERT INTO ledger (invoice, amount) VALUES (?, ?)").bind(invoice.id, invoice.amount),
   *     ])
   *   }
   * }
   * ```
   */
  once(itemKey: string, statements: readonly OnceStatement[]): Promise<OnceResult>
}

/** What `Jobs.make` takes: a recurring job as declared in code. */
export interface JobDefinition {
  /** `[a-z0-9][a-z0-9._-]{0,99}`, unique across the list given to `Jobs.registry`. */
  name: string
  /** 5 fields, UTC, minute granularity. */
  cron: string
  /** True when two runs of one slot would be wrong or paid for twice: the slot is claimed once. */
  exclusive: boolean
  /** 1 second..15 minutes; an exclusive job's lease is timeout + 1 minute. */
  timeout: Duration
  /** Processes what is due as of `slot`, never "since the last run". */
  run: (slot: Date, ctx: JobContext) => unknown
}

/** A declared job, checked and frozen (`Jobs.make`'s answer): what `Jobs.registry`, the heartbeat and admin take. */
export interface Job {
  /** Its name, unique in the Worker's list: the lease's key and every log line's `job`. */
  readonly name: string
  /** Its 5-field UTC cron, as declared. */
  readonly cron: string
  /** True when each slot is claimed once (the slot claim) and runs at most once. */
  readonly exclusive: boolean
  /** How long a run may take before its signal aborts it, in milliseconds. */
  readonly timeoutMs: number
  /** How long an exclusive run's slot claim holds: the timeout plus one minute. */
  readonly leaseMs: number
  /** The parsed cron: which minutes are the job's slots. */
  readonly schedule: CronSchedule
  /** What runs each slot, as declared. */
  readonly run: JobDefinition["run"]
}

export const JOB_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/
export const MIN_TIMEOUT_MS = 1_000
export const MAX_TIMEOUT_MS = 15 * MINUTE_MS
export const LEASE_MARGIN_MS = MINUTE_MS

/** A job definition `Jobs.make` refused, naming the job and the field: thrown when the module loads. */
export class JobDefinitionError extends Error {
  /** The job's name as given (or a description of it when it is not a string). */
  readonly job: string
  /** The field at fault. */
  readonly field: keyof JobDefinition
  /** Always "JobDefinitionError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "JobDefinitionError"

  constructor(job: string, field: keyof JobDefinition, problem: string) {
    super(`job "${job}": ${field} ${problem}`)
    this.job = job
    this.field = field
  }
}

/**
 * Declares a recurring job, validated when the module loads (a bad one fails the deploy, not a
 * 3 a.m. slot): throws JobDefinitionError naming the job and the field.
 *
 * @example
 * ```ts
 * export const closeExpiredTrials = Jobs.make({
 *   name: "billing.close-expired-trials", // [a-z0-9][a-z0-9._-]{0,99}, unique
 *   cron: "0 3 * * *",                    // 5 fields, UTC
 *   exclusive: true,                      // the slot is claimed once, through one D1 upsert
 *   timeout: "5 minutes",                 // 1 s..15 min; the lease is timeout + 1 minute
 *   run: (slot, ctx) => closeDueAt(ctx.env, slot), // what is due as of slot
 * })
 * ```
 */
export function make(definition: JobDefinition): Job {
  const label = typeof definition?.name === "string" ? definition.name : describeValue(definition?.name)
  const fail = (field: keyof JobDefinition, problem: string) => {
    throw new JobDefinitionError(label, field, problem)
  }
  if (typeof definition?.name !== "string" || !JOB_NAME.test(definition.name)) {
    fail("name", "must match [a-z0-9][a-z0-9._-]{0,99}")
  }
  let schedule: CronSchedule | undefined
  try {
    schedule = parseCron(definition.cron)
  } catch (error) {
    if (!(error instanceof CronSyntaxError)) throw error
    fail("cron", error.message)
  }
  if (typeof definition.exclusive !== "boolean") fail("exclusive", "must be true or false")
  const timeoutMs = toMillis(definition.timeout)
  if (timeoutMs === undefined) {
    fail("timeout", `must be milliseconds or a string such as "5 minutes", got ${describeValue(definition.timeout)}`)
  } else if (timeoutMs < MIN_TIMEOUT_MS || timeoutMs > MAX_TIMEOUT_MS) {
    fail("timeout", `must be between 1 second and 15 minutes, got ${timeoutMs} ms`)
  }
  if (typeof definition.run !== "function") fail("run", "must be a function")
  return Object.freeze({
    name: definition.name,
    cron: definition.cron,
    exclusive: definition.exclusive,
    timeoutMs: timeoutMs as number,
    leaseMs: (timeoutMs as number) + LEASE_MARGIN_MS,
    schedule: schedule as CronSchedule,
    run: definition.run,
  })
}
