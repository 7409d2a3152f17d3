import { HonoBase as Hono } from "hono/hono-base"
import { TrieRouter } from "hono/router/trie-router"
import { ALERTS_JOB } from "../alerts/alert-job.ts"
import { database } from "../db/index.ts"
import { lastRunOf, summaryOf } from "../jobs/contract/record.ts"
import { capacityOf, mostDueIn } from "../jobs/contract/registry.ts"
import { heldLeases } from "../jobs/history/held-leases.ts"
import { liveness } from "../jobs/history/liveness.ts"
import type { Job } from "../jobs/index.ts"
import { listLeases } from "../jobs/protocol/lease.ts"
import { pausedJobs } from "../jobs/protocol/pauses.ts"
import type { WatchSummary } from "../schedules/directory/watch-summary.ts"
import { Schedules } from "../schedules/index.ts"
import type { AdminEnv } from "./access.ts"
import type { HealthView } from "./answers.ts"
import { countRetrying } from "./retrying.ts"
import { ADMIN_ROUTES } from "./routes.ts"

/**
 * GET /health: the heartbeat (from the leases), the watchdog's last run (its record), the retrying count,
 * whether the busiest minute's due jobs fit one heartbeat on the declared plan, the leases held past their next slot,
 * and what it cannot vouch for because the job it reads from (the watchdog, the alerts job) is paused: then not ok.
 */
export const healthRoutes = (jobs: readonly Job[]) =>
  new Hono<AdminEnv>({ router: new TrieRouter() }).get(ADMIN_ROUTES.health.path, async (c) => {
    const now = Date.now()
    const db = database(c.env.DB)
    const [leases, paused] = await Promise.all([listLeases(db), pausedJobs(db)])
    // A paused job's slots are skipped on purpose: they say nothing of whether the heartbeat fires.
    const beat = liveness(
      jobs.filter((job) => !paused.has(job.name)),
      leases,
      now,
    )
    const watchdogName = Schedules.watchdog.name
    const watchdogLease = leases.find((lease) => lease.name === watchdogName)
    const summary = summaryOf(watchdogLease) as WatchSummary | null
    const capacity = capacityOf(jobs)
    const most = mostDueIn(jobs)
    // Over capacity with no overflow queue, the excess of the busiest minute is not run.
    const fits = most.jobs <= capacity.jobsPerHeartbeat || capacity.overflowQueue !== null
    const held = heldLeases(jobs, leases, now)
    // What health reads from a job that does not run while it is paused: it cannot vouch for it then.
    const blind = [
      [watchdogName, "streams behind: the watchdog neither counts nor nudges lost alarms, so its last count is stale"],
      [ALERTS_JOB, "alerts: no rule is judged, no notice is sent, and the heartbeat's dead man's switch will fire"],
    ].flatMap(([job, cannot]) => {
      const pause = paused.get(job as string)
      return pause && jobs.some((declared) => declared.name === job)
        ? [{ job: job as string, cannot: cannot as string, pause }]
        : []
    })
    const view: HealthView = {
      now,
      ok:
        (beat.status === "alive" || beat.status === "unknown") &&
        (summary?.overdue ?? 0) === 0 &&
        fits &&
        held.length === 0 &&
        blind.length === 0,
      heartbeat: { ...beat, ageMs: beat.lastFiredAt === null ? null : now - beat.lastFiredAt },
      watchdog: {
        job: watchdogName,
        declared: jobs.some((job) => job.name === watchdogName),
        lastRun: lastRunOf(watchdogLease),
        summary,
      },
      retrying: await countRetrying(c.env, now),
      paused: [...paused.values()].sort((a, b) => a.pausedAt - b.pausedAt),
      blind,
      capacity: {
        plan: capacity.plan,
        jobsPerHeartbeat: capacity.jobsPerHeartbeat,
        mostDue: most.jobs,
        mostDueAt: most.at,
        overflowQueue: capacity.overflowQueue,
        ok: fits,
      },
      heldLeases: held,
    }
    return c.json(view)
  })
