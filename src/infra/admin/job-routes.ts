import { type Context, Hono } from "hono"
import { database } from "../db/index.ts"
import type { JobLease } from "../db/job-lease.ts"
import { problem, validate } from "../http/index.ts"
import { HISTORY_DAYS_DEFAULT, historySince, jobHistory } from "../jobs/history.ts"
import { type Job, Jobs } from "../jobs/index.ts"
import { listLeases } from "../jobs/lease.ts"
import { leaseStatus } from "../jobs/lease-status.ts"
import { lastRunOf } from "../jobs/record.ts"
import { readRunHours } from "../jobs/run-hours.ts"
import { slotOf } from "../jobs/slot.ts"
import { timeline } from "../jobs/timeline.ts"
import type { AdminEnv } from "./access.ts"
import type { Answers, JobView, LeaseView } from "./answers.ts"
import { jobHistoryQuery, jobParam } from "./inputs.ts"
import { ADMIN_ROUTES } from "./routes.ts"

/** A lease as the admin shows it, with its derived status. */
export const leaseView = (lease: JobLease | undefined, now: number): LeaseView => ({
  lastSlot: lease?.lastSlot ?? null,
  leaseUntil: lease?.leaseUntil ?? null,
  holder: lease?.holder ?? null,
  status: leaseStatus(lease, now),
})

/** A declared job with its lease, its last recorded run and its newest slots, runs and gaps alike. */
export const jobView = (job: Job, lease: JobLease | undefined, now: number): JobView => ({
  name: job.name,
  cron: job.cron,
  exclusive: job.exclusive,
  timeoutMs: job.timeoutMs,
  leaseMs: job.leaseMs,
  nextSlot: job.schedule.nextAfter(now) ?? null,
  lease: leaseView(lease, now),
  lastRun: lastRunOf(lease),
  slots: timeline(job, lease, now),
})

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
  new Hono<AdminEnv>()
    .get(ADMIN_ROUTES.jobs.path, async (c) => {
      const now = Date.now()
      const leases = new Map((await listLeases(database(c.env.DB))).map((lease) => [lease.name, lease]))
      const answer: Answers["jobs"] = { now, jobs: jobs.map((job) => jobView(job, leases.get(job.name), now)) }
      return c.json(answer)
    })
    .get(ADMIN_ROUTES.jobHistory.path, validate("param", jobParam), validate("query", jobHistoryQuery), async (c) => {
      const { name } = c.req.valid("param")
      const { days = HISTORY_DAYS_DEFAULT } = c.req.valid("query")
      const job = jobs.find((declared) => declared.name === name)
      if (!job) return unknownJob(c, name)
      const now = Date.now()
      const { rows, firstRun, lease } = await readRunHours(database(c.env.DB), name, historySince(now, days))
      const answer: Answers["jobHistory"] = jobHistory(job, rows, firstRun, lease, now, days)
      return c.json(answer)
    })
    .post(ADMIN_ROUTES.runJob.path, validate("param", jobParam), async (c) => {
      const { name } = c.req.valid("param")
      const job = jobs.find((declared) => declared.name === name)
      if (!job) return unknownJob(c, name)
      const slot = slotOf(Date.now())
      const result = await Jobs.run(job, slot, { env: c.env, waitUntil: waitUntilOf(c) })
      if (result.reason === "slot taken") {
        return problem(c, 409, "Conflict", `the ${slot.toISOString()} slot of "${name}" is already run or held`)
      }
      if (result.status === "skipped") {
        return problem(c, 503, "Unavailable", `the slot could not be claimed (${result.reason}); see the Worker's logs`)
      }
      return c.json({ job: name, slot: slot.getTime(), ...result })
    })
