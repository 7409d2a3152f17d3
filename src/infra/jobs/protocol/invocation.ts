import { Deadlines, type TIMED_OUT } from "../../deadline.ts"
import type { SlotwiseEnv } from "../../env.ts"
import { recordRun } from "../../metrics/index.ts"
// The measure's own module: the index also re-exports the Analytics Engine point, a Workers-only type.
import type { RunMeasure } from "../../metrics/measure.ts"
import type { JobsCapacity } from "../contract/registry.ts"
import { ClaimBatch } from "./claim-batch.ts"
import { PAUSE_QUERIES } from "./pauses.ts"
import { budgetedD1, QueryBudget, type QueryUse } from "./query-budget.ts"
import { ReleaseBatch } from "./release-batch.ts"

/**
 * What the runs of one Worker invocation share (a heartbeat, a queue batch, or one `Jobs.run`): their
 * claims, made as one statement; their releases, group-committed; and the invocation's Analytics Engine
 * data points, of which Cloudflare takes at most `points`.
 */
export interface JobInvocation {
  claims: ClaimBatch
  releases: ReleaseBatch
  /** Reports a run's measure; past the invocation's points, the Analytics Engine point is counted as unwritten. */
  record(env: SlotwiseEnv, measure: RunMeasure): void
  /** Run measures whose Analytics Engine point was not written (the invocation's points were spent). */
  readonly unwritten: number
  /** The env the jobs are handed: its DB within the queries the invocation leaves them (query-budget.ts). */
  jobEnv(env: SlotwiseEnv): SlotwiseEnv
  /** The invocation's D1 for one of slotwise's own uses, each query counted in the one budget (query-budget.ts). */
  d1(use: Exclude<QueryUse, "job">): D1Database
  /** Keeps `n` more of the budget's queries for the releases (a run's own release), or gives back -n. */
  keep(n: number): void
  /**
   * `work`, or TIMED_OUT (after `onTimeout`) once `ms` passed: the runs that wait the same time from the same
   * moment share one timer (a Worker may hold 10,000 at once; a heartbeat of 10,000 runs would need 20,000).
   */
  within<T>(work: Promise<T>, ms: number, onTimeout?: () => void): Promise<T | typeof TIMED_OUT>
}

export interface InvocationOptions {
  /** The database's clock as a test stands it in. */
  now?: () => number
  /** How long a claim or release waits for D1. */
  deadlineMs: number
  /** The group-commit window (release-batch.ts). */
  windowMs?: number
  /** The Analytics Engine data points the invocation may write. */
  points?: number
  /** Every D1 query the invocation may make (its plan's), and the room it keeps for slotwise's own; unset, no limit. */
  queries?: QueryBudget
  /** Wait a turn to claim with the runs started together (a heartbeat's, a queue batch's); unset, a claim goes at once. */
  gather?: boolean
}

/** The batches and budgets of one invocation's runs. */
export function jobInvocation(d1: D1Database, options: InvocationOptions): JobInvocation {
  let points = options.points ?? Number.POSITIVE_INFINITY
  let unwritten = 0
  const budget = options.queries
  const counted = (use: QueryUse) => (db: D1Database) =>
    budget && db ? budgetedD1(db, (n) => budget.take(use, n)) : db
  let handed: { env: SlotwiseEnv; jobs: SlotwiseEnv } | undefined
  // By the moment a wait starts (a Worker's clock stands still between I/O): one Deadlines each, one timer a length.
  const deadlines = new Map<number, Deadlines>()
  return {
    within(work, ms, onTimeout = () => {}) {
      const now = Date.now()
      let shared = deadlines.get(now)
      if (shared === undefined) {
        shared = new Deadlines()
        deadlines.set(now, shared)
      }
      return shared.within(work, ms, onTimeout)
    },
    jobEnv(env) {
      if (budget === undefined || env.DB === undefined) return env
      if (handed?.env !== env) handed = { env, jobs: { ...env, DB: counted("job")(env.DB) } }
      return handed.jobs
    },
    d1: (use) => counted(use)(d1),
    keep: (n) => budget?.keep(n),
    claims: new ClaimBatch(counted("claim")(d1), options.now, options.gather ?? false),
    releases: new ReleaseBatch(counted("release")(d1), {
      deadlineMs: options.deadlineMs,
      ...(options.windowMs === undefined ? {} : { windowMs: options.windowMs }),
      ...(options.now === undefined ? {} : { now: options.now }),
    }),
    record(env, measure) {
      if (env.SLOTWISE_METRICS === undefined) return recordRun(env, measure)
      if (points-- > 0) return recordRun(env, measure)
      unwritten++
      // The installed recorder (OpenTelemetry on the container) has no such limit.
      recordRun({ ...env, SLOTWISE_METRICS: undefined }, measure)
    },
    get unwritten() {
      return unwritten
    },
  }
}

/**
 * The invocation of a heartbeat or a queue batch, within the list's declared plan: one budget of the plan's D1
 * queries, of which the pause lookup (a heartbeat's), CLAIM_QUERIES and the releases' share are kept for
 * slotwise (query-budget.ts), and the Analytics Engine points.
 */
export const plannedInvocation = (
  d1: D1Database,
  capacity: Pick<JobsCapacity, "releaseQueries" | "limits" | "plan">,
  deadlineMs: number,
  now: (() => number) | undefined,
  pauseLookup = false,
): JobInvocation =>
  jobInvocation(d1, {
    deadlineMs,
    points: capacity.limits.analyticsPoints,
    gather: true,
    ...(Number.isFinite(capacity.limits.d1Queries)
      ? {
          queries: new QueryBudget(capacity.limits.d1Queries, capacity.plan, {
            pause: pauseLookup ? PAUSE_QUERIES : 0,
            claim: CLAIM_QUERIES,
            release: capacity.releaseQueries,
          }),
        }
      : {}),
    ...(now === undefined ? {} : { now }),
  })

/** The D1 queries an invocation's claims make: the claim statement (its chunks in one batch), and the lookup of refused ones. */
export const CLAIM_QUERIES = 2
