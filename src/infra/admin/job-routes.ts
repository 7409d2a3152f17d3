import type { Context } from "hono"
import { HonoBase as Hono } from "hono/hono-base"
import { TrieRouter } from "hono/router/trie-router"
import { database } from "../db/index.ts"
import type { JobLease } from "../db/job-lease.ts"
import { problem, validate } from "../http/index.ts"
import type { Pause } from "../jobs/contract/pause.ts"
import { lastRunOf } from "../jobs/contract/record.ts"
import { slotOf } from "../jobs/contract/slot.ts"
import { HISTORY_DAYS_DEFAULT, historySince, jobHistory } from "../jobs/history/history.ts"
import { timeline } from "../jobs/history/timeline.ts"
import { type Job, Jobs } from "../jobs/index.ts"
import { listLeases } from "../jobs/protocol/lease.ts"
import { leaseStatus } from "../jobs/protocol/lease-status.ts"
import { pauseJob, pausesOfAll, pausesSince, resumeJob } from "../jobs/protocol/pauses.ts"
import { readRunHours } from "../jobs/protocol/run-hours.ts"
import type { AdminEnv } from "./access.ts"
import type { Answers, JobView, LeaseView } from "./answers.ts"
import { jobHistoryQuery, jobParam, pauseBody } from "./inputs.ts"
import { ADMIN_ROUTES } from "./routes.ts"

/** A lease as the admin shows it, with its derived status. */
export const leaseView = (lease: JobLease | undefined, now: number): LeaseView => ({
  lastSlot: lease?.lastSlot ?? null,
  leaseUntil: lease?.leaseUntil ?? null,
  holder: lease?.holder ?? null,
  status: leaseStatus(lease, now),
})

/** A declared job with its lease, its last recorded run, its newest slots (runs, gaps and paused slots) and its pause. */
export const jobView = (
  job: Job,
  lease: JobLease | undefined,
  now: number,
  pauses: readonly Pause[] = [],
): JobView => ({
  name: job.name,
  cron: job.cron,
  exclusive: job.exclusive,
  timeoutMs: job.timeoutMs,
  leaseMs: job.leaseMs,
  nextSlot: job.schedule.nextAfter(now) ?? null,
  lease: leaseView(lease, now),
  lastRun: lastRunOf(lease),
  slots: timeline(job, lease, now, undefined, pauses),
  paused: pauses.find((pause) => pause.resumedAt === null) ?? null,
})

/** The day of pauses the job list reads: enough for the newest slots of any job that runs at least hourly. */
const PAUSES_SHOWN_MS = 24 * 3_600_000

/** Who acts through admin: the token's label. The one ADMIN_TOKEN has none, so null. */
const actorOf = (_c: Context): string | null => null

/** The request's waitUntil; a request without an execution context (app.request in tests) has none. */
function waitUntilOf(c: Context): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx
    return ctx.waitUntil.bind(ctx)
  } catch {
    return undefined
  }
}

const unknownJob = (c: Context, name: string) =>
  problem(c, 404, "Not found", `no job "${name}" is among the jobs given to \`admin\``, { field: "name" })

/** GET /jobs, GET /jobs/:name/history and POST /jobs/:name/run over the declared jobs. */
export const jobRoutes = (jobs: readonly Job[]) =>
  new Hono<AdminEnv>({ router: new TrieRouter() })
    .get(ADMIN_ROUTES.jobs.path, async (c) => {
      const now = Date.now()
      const db = database(c.env.DB)
      const [leaseRows, pauseRows] = await Promise.all([listLeases(db), pausesOfAll(db, now - PAUSES_SHOWN_MS)])
      const leases = new Map(leaseRows.map((lease) => [lease.name, lease]))
      const pausesOf = (name: string) => pauseRows.filter((pause) => pause.job === name)
      const answer: Answers["jobs"] = {
        now,
        jobs: jobs.map((job) => jobView(job, leases.get(job.name), now, pausesOf(job.name))),
      }
      return c.json(answer)
    })
    .get(ADMIN_ROUTES.jobHistory.path, validate("param", jobParam), validate("query", jobHistoryQuery), async (c) => {
      const { name } = c.req.valid("param")
      const { days = HISTORY_DAYS_DEFAULT } = c.req.valid("query")
      const job = jobs.find((declared) => declared.name === name)
      if (!job) return unknownJob(c, name)
      const now = Date.now()
      const db = database(c.env.DB)
      const since = historySince(now, days)
      const [{ rows, firstRun, lease }, pauses] = await Promise.all([
        readRunHours(db, name, since),
        pausesSince(db, name, since),
      ])
      const answer: Answers["jobHistory"] = jobHistory(job, rows, firstRun, lease, now, days, pauses)
      return c.json(answer)
    })
    .post(ADMIN_ROUTES.pauseJob.path, validate("param", jobParam), validate("json", pauseBody), async (c) => {
      const { name } = c.req.valid("param")
      if (!jobs.some((declared) => declared.name === name)) return unknownJob(c, name)
      const { reason } = c.req.valid("json")
      const answer: Answers["pauseJob"] = await pauseJob(database(c.env.DB), {
        job: name,
        reason,
        by: actorOf(c),
        now: Date.now(),
      })
      return c.json(answer)
    })
    .post(ADMIN_ROUTES.resumeJob.path, validate("param", jobParam), async (c) => {
      const { name } = c.req.valid("param")
      if (!jobs.some((declared) => declared.name === name)) return unknownJob(c, name)
      const pause = await resumeJob(database(c.env.DB), { job: name, by: actorOf(c), now: Date.now() })
      if (!pause) return problem(c, 409, "Conflict", `job "${name}" is not paused`)
      const answer: Answers["resumeJob"] = { pause }
      return c.json(answer)
    })
    .post(ADMIN_ROUTES.runJob.path, validate("param", jobParam), async (c) => {
      const { name } = c.req.valid("param")
      const job = jobs.find((declared) => declared.name === name)
      if (!job) return unknownJob(c, name)
      const slot = slotOf(Date.now())
      const result = await Jobs.run(job, slot, { env: c.env, waitUntil: waitUntilOf(c) })
      if (result.reason === "slot taken" || result.reason === "lease held") {
        return problem(c, 409, "Conflict", `the ${slot.toISOString()} slot of "${name}" is already run or held`)
      }
      if (result.status === "skipped") {
        return problem(c, 503, "Unavailable", `the slot could not be claimed (${result.reason}); see the Worker's logs`)
      }
      return c.json({ job: name, slot: slot.getTime(), ...result })
    })
