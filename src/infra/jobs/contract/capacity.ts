import type { Job } from "./definition.ts"

/**
 * What Cloudflare lets one Worker invocation (one heartbeat) do, as its plan documents it (docs/limits.md):
 * D1 queries, CPU milliseconds, subrequests, and Analytics Engine data points.
 */
export interface PlanLimits {
  /** D1 queries per invocation (slotwise counts each statement of a batch, as D1 may): 50 on Workers Free, 1,000 on Workers Paid. */
  d1Queries: number
  /** CPU milliseconds per invocation: 10 on Workers Free, 30,000 by default on Workers Paid. */
  cpuMs: number
  /** Subrequests per invocation: 50 on Workers Free, 10,000 on Workers Paid. */
  subrequests: number
  /** Analytics Engine data points per invocation: 250. */
  analyticsPoints: number
}

/** A Workers plan by name: Workers Free or Workers Paid. */
export type PlanName = "free" | "paid"

/** The plans' documented limits, by name. */
export const PLANS: Readonly<Record<PlanName, Readonly<PlanLimits>>> = {
  free: { d1Queries: 50, cpuMs: 10, subrequests: 50, analyticsPoints: 250 },
  paid: { d1Queries: 1_000, cpuMs: 30_000, subrequests: 10_000, analyticsPoints: 250 },
}

/**
 * The CPU slotwise's own JavaScript takes for one run at most (`npm run bench`, jobs: at most 50 µs an
 * exclusive run at 1,000 jobs); a heartbeat keeps half of its CPU for the jobs' own work.
 */
export const RUN_CPU_BUDGET_US = 50
/** The most jobs one heartbeat runs in its own invocation, whatever the plan: the most `npm run bench` measures. */
export const JOBS_PER_HEARTBEAT_MAX = 10_000
/** The share of an invocation's D1 queries the runs' releases may take: the rest is the jobs' own. */
export const RELEASE_QUERY_SHARE = 0.1

/** How many due jobs one heartbeat runs in its own invocation under `limits`: CPU-bound, at most JOBS_PER_HEARTBEAT_MAX. */
export const jobsPerHeartbeat = (limits: PlanLimits): number =>
  Math.max(0, Math.min(JOBS_PER_HEARTBEAT_MAX, Math.floor((limits.cpuMs * 1_000) / 2 / RUN_CPU_BUDGET_US)))

/** The D1 queries a heartbeat's releases may make: RELEASE_QUERY_SHARE of the plan's, at least one. */
export const releaseQueries = (limits: PlanLimits): number =>
  Math.max(1, Math.floor(limits.d1Queries * RELEASE_QUERY_SHARE))

/** The most jobs of `jobs` due in one minute, and the first such minute of a UTC day (0..1439). */
export interface MostDue {
  jobs: number
  /** The minute of the day, `HH:MM` UTC. */
  at: string | null
}

/**
 * The most jobs due in one minute, from their crons' minute and hour fields (croner's reading, cron.ts): an
 * upper bound, exact unless two crons' day fields never meet (such as `0 3 * * 1` and `0 3 * * 2`).
 */
export function mostDue(jobs: readonly Pick<Job, "cron" | "schedule">[]): MostDue {
  const byCron = new Map<string, { count: number; job: Pick<Job, "schedule"> }>()
  for (const job of jobs) {
    const same = byCron.get(job.cron)
    if (same) same.count++
    else byCron.set(job.cron, { count: 1, job })
  }
  const due = new Int32Array(1_440)
  for (const { count, job } of byCron.values())
    for (const minute of job.schedule.minutesOfDay()) due[minute] = (due[minute] ?? 0) + count
  let most = 0
  let at = -1
  due.forEach((count, minute) => {
    if (count > most) {
      most = count
      at = minute
    }
  })
  const pad = (n: number) => String(n).padStart(2, "0")
  return { jobs: most, at: at < 0 ? null : `${pad(Math.floor(at / 60))}:${pad(at % 60)}` }
}

/**
 * The due jobs one heartbeat runs, and the excess: at most `room`, starting at a place that moves on each
 * minute, so no job is always the one left out.
 */
export function withinRoom<T>(due: readonly T[], room: number, slot: number): { run: T[]; excess: T[] } {
  if (due.length <= room) return { run: [...due], excess: [] }
  const start = Math.floor(slot / 60_000) % due.length
  const turned = [...due.slice(start), ...due.slice(0, start)]
  return { run: turned.slice(0, room), excess: turned.slice(room) }
}
