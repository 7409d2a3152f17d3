import { CronSyntaxError, parseCron } from "../../cron.ts"
import { database } from "../../db/index.ts"
import type { SlotwiseEnv } from "../../env.ts"
import { describeError, logLine } from "../../log.ts"
import { withinRoom } from "../contract/capacity.ts"
import type { Job } from "../contract/definition.ts"
import { capacityOf, type JobsCapacity } from "../contract/registry.ts"
import { dueAt, slotOf } from "../contract/slot.ts"
import { type JobInvocation, jobInvocation, plannedInvocation } from "../protocol/invocation.ts"
import { withoutPaused } from "../protocol/pauses.ts"
import type { SlotSkip } from "../protocol/slot-release.ts"
import { handOff, handOffDue, queueOf } from "./hand-off.ts"
import { D1_DEADLINE_MS, type RunDeps, type RunResult, runIn } from "./run.ts"

/** The heartbeat's Cron Trigger unless `Jobs.heartbeat` is given another; every job is matched against its minute. */
export const HEARTBEAT_CRON = "* * * * *"

/** How `Jobs.heartbeat` fires: its Cron Trigger, the Queue it hands due jobs to, how long D1 may take. */
export interface HeartbeatOptions extends Pick<RunDeps, "d1DeadlineMs"> {
  /**
   * The Cron Trigger that fires the heartbeat, spelled exactly as in wrangler.toml's `crons` (Cloudflare
   * hands `scheduled()` that text); default `* * * * *`. A job runs only in minutes both crons name.
   */
  cron?: string
  /**
   * The name of a Queue producer binding (wrangler.toml's `[[queues.producers]]`): the heartbeat then
   * sends one message `{ job, slot }` per due job to it and runs nothing itself; `Jobs.queue(jobs)`,
   * the Worker's `queue` handler, runs each in its own invocation. Unset, the heartbeat runs the due
   * jobs in its own invocation. A name that is not a Queue binding in env throws a QueueBindingError
   * naming it at each fire, and no job runs: never in this invocation instead.
   */
  queue?: string
}

/**
 * Runs, concurrently, every job due in the minute of `scheduledTime`, as many as the list's declared
 * capacity lets one invocation run (registry.ts): their claims as one statement, their releases
 * group-committed (invocation.ts). The excess goes to the declared overflowQueue, or is not run, each
 * with one error line. Each run is bounded by its own timeout, so one hang or failure never holds up
 * another. Never throws.
 */
export async function beat(
  jobs: readonly Job[],
  scheduledTime: number,
  env: SlotwiseEnv,
  options: Pick<RunDeps, "waitUntil" | "d1DeadlineMs" | "now"> & { capacity?: JobsCapacity } = {},
): Promise<Array<{ job: string } & RunResult>> {
  try {
    const slot = slotOf(scheduledTime)
    // The container passes UNBOUNDED: no Workers plan limits its invocations.
    const { capacity = capacityOf(jobs), ...deps } = options
    // One budget for every D1 query of the invocation: the pause lookup's, the claims', the jobs', the releases'.
    const shared = plannedInvocation(env.DB, capacity, deps.d1DeadlineMs ?? D1_DEADLINE_MS, deps.now, true)
    const due = await withoutPaused(database(shared.d1("pause")), dueAt(jobs, slot), slot, logLine)
    const { run, excess } = withinRoom(due, capacity.jobsPerHeartbeat, slot.getTime())
    const overflow = excess.length > 0 ? overflowTo(excess, slot, env, capacity, shared) : []
    const settled = await Promise.allSettled(run.map((job) => runIn(job, slot, { env, ...deps }, shared)))
    shared.releases.flush()
    if (shared.unwritten > 0) {
      logLine("warn", "jobs.metrics", {
        slot: slot.toISOString(),
        unwritten: shared.unwritten,
        reason: `Analytics Engine takes ${capacity.limits.analyticsPoints} data points an invocation: these runs wrote none (their log lines and history hold them)`,
      })
    }
    const results = settled.flatMap((result, i) => {
      const job = (run[i] as Job).name
      if (result.status === "fulfilled") return [{ job, ...result.value }]
      logLine("error", "job.run", { job, scheduledTime, outcome: "failed", error: describeError(result.reason) })
      return []
    })
    return [...results, ...(await overflow)]
  } catch (error) {
    logLine("error", "heartbeat failed", { scheduledTime, error: describeError(error) })
    return []
  }
}

/**
 * The due jobs a heartbeat has no room for: handed to the declared overflowQueue, or each not run with one
 * error line (`reason: "over capacity"`) and a skipped entry in its history, as when the queue is missing.
 */
async function overflowTo(
  excess: readonly Job[],
  slot: Date,
  env: SlotwiseEnv,
  capacity: JobsCapacity,
  shared: JobInvocation,
): Promise<Array<{ job: string } & RunResult>> {
  const binding = capacity.overflowQueue
  if (binding !== null) {
    try {
      // Whatever is not sent there says so itself (hand-off.ts), a line a job; its entry goes with the releases.
      const entries: Promise<void>[] = []
      const skipped = (skip: SlotSkip) => void entries.push(shared.releases.skip(skip, false, true))
      await handOffDue(excess, slot, queueOf(env, binding), binding, capacity.limits.subrequests, skipped)
      await Promise.all(entries)
      return []
    } catch (error) {
      logLine("error", "jobs.hand-off", { queue: binding, slot: slot.toISOString(), error: describeError(error) })
    }
  }
  const reason = "over capacity" as const
  const { plan, jobsPerHeartbeat, overflowQueue } = capacity
  const fields = { slot: slot.toISOString(), outcome: "skipped", reason, plan, jobsPerHeartbeat, overflowQueue }
  // Each exclusive job's history says so too, written with the runs' releases (flushed once they have ended).
  const recorded = excess.map((job) =>
    job.exclusive ? shared.releases.skip({ name: job.name, slot: slot.getTime(), reason }, false, true) : undefined,
  )
  const results = excess.map((job) => {
    const runId = crypto.randomUUID()
    logLine("error", "job.run", { job: job.name, runId, ...fields })
    return { job: job.name, status: "skipped" as const, runId, ms: 0, reason }
  })
  await Promise.all(recorded)
  return results
}

/**
 * A Worker's `scheduled` handler: the heartbeat of its own Cron Trigger (`options.cron`, default
 * `* * * * *`), running the jobs due each minute (a late claim's release kept alive by
 * `ctx.waitUntil`), or, with `options.queue`, handing each to that Queue. Any other trigger reaching it runs nothing and writes one warning line naming
 * that cron. A cron that does not parse throws a TypeError naming `cron` here, at start-up.
 *
 * @example
 * ```ts
 * export default { fetch: app.fetch, scheduled: Jobs.heartbeat(jobs) } satisfies ExportedHandler<Env>
 * // with a trigger of your own beside it (wrangler.toml: crons = ["* * * * *", "0 3 * * *"]):
 * const slotwise = Jobs.heartbeat(jobs)
 * export default {
 *   fetch: app.fetch,
 *   scheduled: (controller, env, ctx) =>
 *     controller.cron === "0 3 * * *" ? nightlyExport(env) : slotwise(controller, env, ctx),
 * } satisfies ExportedHandler<Env>
 * // each due job in its own invocation, through the Queue bound as JOBS (see Jobs.queue):
 * export default { scheduled: Jobs.heartbeat(jobs, { queue: "JOBS" }), queue: Jobs.queue(jobs) }
 * ```
 */
export const heartbeat = (jobs: readonly Job[], options: HeartbeatOptions = {}) => {
  const { cron = HEARTBEAT_CRON, queue: binding, ...deps } = options
  checkCron(cron)
  checkQueue(binding)
  // Resolved here, when the module loads: a list whose jobs carry different plans throws now, never at a fire.
  const capacity = capacityOf(jobs)
  return async (controller: ScheduledController, env: SlotwiseEnv, ctx: ExecutionContext): Promise<void> => {
    // Exact text, as Cloudflare passes it: another trigger of the Worker must not run the jobs too.
    if (controller.cron !== cron) {
      logLine("warn", "heartbeat: not its cron", {
        cron: controller.cron,
        heartbeatCron: cron,
        scheduledTime: controller.scheduledTime,
      })
      return
    }
    if (binding !== undefined) {
      const slot = slotOf(controller.scheduledTime)
      const due = await withoutPaused(database(env.DB), dueAt(jobs, slot), slot, logLine)
      // Each sendBatch call is a subrequest of this invocation; a slot not handed off gets its history entry.
      const { releases } = jobInvocation(env.DB, { deadlineMs: deps.d1DeadlineMs ?? D1_DEADLINE_MS })
      const entries: Promise<void>[] = []
      const skipped = (skip: SlotSkip) => void entries.push(releases.skip(skip))
      await handOff(due, controller.scheduledTime, queueOf(env, binding), binding, capacity.limits.subrequests, skipped)
      await Promise.all(entries)
      return
    }
    await beat(jobs, controller.scheduledTime, env, { ...deps, capacity, waitUntil: ctx.waitUntil.bind(ctx) })
  }
}

function checkQueue(binding: unknown): void {
  if (binding === undefined) return
  if (typeof binding !== "string" || binding.length === 0) {
    throw new TypeError("Jobs.heartbeat: queue must be the name of a Queue producer binding, a non-empty string")
  }
}

function checkCron(cron: string): void {
  try {
    parseCron(cron)
  } catch (error) {
    if (!(error instanceof CronSyntaxError)) throw error
    throw new TypeError(`Jobs.heartbeat: cron ${error.message}`)
  }
}
