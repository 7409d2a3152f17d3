import { logLine } from "../../log.ts"
import {
  jobsPerHeartbeat,
  type MostDue,
  mostDue,
  PLANS,
  type PlanLimits,
  type PlanName,
  releaseQueries,
} from "./capacity.ts"
import type { Job } from "./definition.ts"

/** Two jobs of one name in the list given to `Jobs.registry`: they would share one lease. */
export class DuplicateJobError extends Error {
  /** Always "DuplicateJobError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "DuplicateJobError"
}

/** More jobs are due in one minute than one heartbeat runs on the declared plan, and `overCapacity: "refuse"` was asked. */
export class JobCapacityError extends Error {
  /** Always "JobCapacityError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "JobCapacityError"
}

/**
 * Jobs of one list carry different declarations of what an invocation may do (two lists declared with different
 * plans, spread into one), or a list declares one its jobs contradict: which holds is ambiguous, so the list is
 * refused when the module loads, naming the field.
 */
export class PlanDeclarationError extends Error {
  /** Always "PlanDeclarationError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "PlanDeclarationError"
}

/** What one heartbeat may take, declared with the list (docs/limits.md, "A heartbeat's capacity"). */
export interface RegistryOptions {
  /**
   * The Workers plan the Worker runs on, or its limits: what one invocation may do. Default `"free"`, the
   * smaller: a heartbeat never counts on more than the plan gives.
   */
  plan?: PlanName | PlanLimits
  /**
   * A Queue producer binding (`[[queues.producers]]`) that a heartbeat hands the jobs it has no room for
   * (one message `{ job, slot }` each, run by `Jobs.queue`). Unset, those jobs are not run that minute,
   * each with one error line, and admin health says so.
   */
  overflowQueue?: string
  /**
   * What the registry does when its jobs' crons name a minute with more due jobs than one heartbeat runs and
   * no overflowQueue is declared: `"warn"` (default, one warning line when the module loads) or `"refuse"`
   * (throws JobCapacityError).
   */
  overCapacity?: "warn" | "refuse"
}

/** A list's declared capacity: the plan's limits, what a heartbeat runs, and the most jobs due in one minute. */
export interface JobsCapacity {
  /** "free", "paid", or "custom" for limits given as an object. */
  plan: string
  limits: PlanLimits
  /** The due jobs one heartbeat runs in its own invocation. */
  jobsPerHeartbeat: number
  /** The D1 queries a heartbeat's releases may make. */
  releaseQueries: number
  /** The Queue binding the excess goes to, or null. */
  overflowQueue: string | null
  /** What the registry does past capacity with no overflowQueue. */
  overCapacity: "warn" | "refuse"
}

/**
 * No invocation's limits, as in the container (`slotwise/node`): no plan counts its queries or CPU, so a
 * heartbeat runs every due job and leaves the jobs every query.
 */
export const UNBOUNDED: JobsCapacity = Object.freeze({
  plan: "none",
  limits: {
    d1Queries: Number.POSITIVE_INFINITY,
    cpuMs: Number.POSITIVE_INFINITY,
    subrequests: Number.POSITIVE_INFINITY,
    analyticsPoints: Number.POSITIVE_INFINITY,
  },
  jobsPerHeartbeat: Number.POSITIVE_INFINITY,
  releaseQueries: Number.POSITIVE_INFINITY,
  overflowQueue: null,
  overCapacity: "warn",
})

const declared = new WeakMap<readonly Job[], JobsCapacity>()
const mostDueOf = new WeakMap<readonly Job[], MostDue>()

const FIELDS = ["plan", "overflowQueue", "overCapacity"] as const
type Field = (typeof FIELDS)[number]
/** A job's declarations, field by field, each value under its JSON text (so limits given as objects compare by value). */
type Declared = Partial<Record<Field, Map<string, unknown>>>
/**
 * What each job was declared with: the declaration rides on the jobs themselves, so a list built from them by
 * spreading, concat or registering again (with Schedules.watchdog) keeps it, never the free plan by default.
 */
const declarationsOf = new WeakMap<Job, Declared>()

/**
 * The capacity `jobs` runs with: the one `Jobs.registry` declared for that list, or else the one its jobs carry
 * (a list spread or concatenated from registered ones); jobs carrying none run on the safe default, Workers
 * Free. Throws PlanDeclarationError, naming the field, when its jobs carry different declarations.
 */
export function capacityOf(jobs: readonly Job[]): JobsCapacity {
  let capacity = declared.get(jobs)
  if (capacity === undefined) {
    capacity = capacityFor(resolved(jobs))
    declared.set(jobs, capacity)
  }
  return capacity
}

/** The options that hold for `jobs`: those given, else those their jobs carry; two different values of a field throw. */
function resolved(jobs: readonly Job[], options: RegistryOptions = {}): RegistryOptions {
  const out: Record<string, unknown> = {}
  for (const field of FIELDS) {
    const values = new Map<string, unknown>()
    const given = options[field]
    if (given !== undefined) values.set(JSON.stringify(given), given)
    for (const job of jobs) for (const [text, value] of declarationsOf.get(job)?.[field] ?? []) values.set(text, value)
    if (values.size > 1) {
      throw new PlanDeclarationError(`Jobs: ${field} is ${[...values.keys()].join(" and ")}: declare it once`)
    }
    const [only] = values.values()
    if (only !== undefined) out[field] = only
  }
  return out as RegistryOptions
}

/** Stamps the fields `options` declares on each of `jobs`. */
function declare(jobs: readonly Job[], options: RegistryOptions): void {
  for (const field of FIELDS) {
    const value = options[field]
    if (value === undefined) continue
    for (const job of jobs) {
      const own = declarationsOf.get(job) ?? {}
      declarationsOf.set(job, own)
      const values = own[field] ?? new Map<string, unknown>()
      own[field] = values
      values.set(JSON.stringify(value), value)
    }
  }
}

/** The most of `jobs` due in one minute (capacity.ts), computed once a list. */
export function mostDueIn(jobs: readonly Job[]): MostDue {
  let most = mostDueOf.get(jobs)
  if (most === undefined) {
    most = mostDue(jobs)
    mostDueOf.set(jobs, most)
  }
  return most
}

/**
 * The one list of jobs; a duplicate name fails at start-up, since both would share one lease. With it, what
 * one heartbeat may take (options.plan, default Workers Free): the registry reads from the crons the most
 * jobs due in one minute and, past what a heartbeat runs, warns (or refuses, `overCapacity: "refuse"`) at
 * load unless an overflowQueue takes the excess. The options are declared once: they ride on the jobs, so a
 * list built from them (spread, concat, registered again with Schedules.watchdog) keeps them; jobs carrying
 * different values of a field, or options contradicting theirs, throw PlanDeclarationError naming the field.
 *
 * @example
 * ```ts
 * // src/jobs.ts: on Workers Paid, the excess of a minute handed to the Queue bound as JOBS (run by Jobs.queue)
 * export const jobs = Jobs.registry([closeExpiredTrials, rollUpUsage], { plan: "paid", overflowQueue: "JOBS" })
 * // src/index.ts: the same plan and queue, carried by the jobs
 * const workerJobs = Jobs.registry([...jobs, Schedules.watchdog])
 * ```
 */
export function registry(jobs: readonly Job[], options: RegistryOptions = {}): readonly Job[] {
  const seen = new Set<string>()
  for (const job of jobs) {
    if (seen.has(job.name))
      throw new DuplicateJobError(`job "${job.name}" is declared twice in the list given to \`Jobs.registry\``)
    seen.add(job.name)
  }
  const capacity = capacityFor(resolved(jobs, options))
  const list = Object.freeze([...jobs])
  declared.set(list, capacity)
  const most = mostDueIn(list)
  if (most.jobs > capacity.jobsPerHeartbeat && capacity.overflowQueue === null) {
    const text = `up to ${most.jobs} jobs are due in one minute (first at ${most.at} UTC), more than the ${capacity.jobsPerHeartbeat} a heartbeat runs on the ${capacity.plan} plan: declare the plan, or an overflowQueue`
    if (capacity.overCapacity === "refuse") throw new JobCapacityError(`Jobs.registry: ${text}`)
    logLine("warn", "jobs.capacity", { mostDue: most.jobs, at: most.at, ...summaryOf(capacity), text })
  }
  declare(list, options)
  return list
}

const summaryOf = (capacity: JobsCapacity) => ({ plan: capacity.plan, jobsPerHeartbeat: capacity.jobsPerHeartbeat })

const LIMIT_FIELDS = ["d1Queries", "cpuMs", "subrequests", "analyticsPoints"] as const

function capacityFor(options: RegistryOptions): JobsCapacity {
  const { plan = "free", overflowQueue, overCapacity } = options
  let limits: PlanLimits
  if (typeof plan === "string" && Object.hasOwn(PLANS, plan)) limits = PLANS[plan]
  else if (typeof plan === "object" && plan !== null) {
    for (const field of LIMIT_FIELDS) {
      const value = plan[field]
      if (!Number.isSafeInteger(value) || value < 1)
        throw new TypeError(`Jobs.registry: plan.${field} must be a whole number of at least 1`)
    }
    limits = { ...plan }
  } else throw new TypeError(`Jobs.registry: plan must be "free", "paid" or limits, got ${JSON.stringify(plan)}`)
  if (overflowQueue !== undefined && (typeof overflowQueue !== "string" || overflowQueue.length === 0))
    throw new TypeError("Jobs.registry: overflowQueue must be the name of a Queue producer binding, a non-empty string")
  if (overCapacity !== undefined && overCapacity !== "warn" && overCapacity !== "refuse")
    throw new TypeError('Jobs.registry: overCapacity must be "warn" or "refuse"')
  return {
    plan: typeof plan === "string" ? plan : "custom",
    limits,
    jobsPerHeartbeat: jobsPerHeartbeat(limits),
    releaseQueries: releaseQueries(limits),
    overflowQueue: overflowQueue ?? null,
    overCapacity: overCapacity ?? "warn",
  }
}
