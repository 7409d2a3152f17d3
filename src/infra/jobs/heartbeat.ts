import { CronSyntaxError, parseCron } from "../cron.ts"
import { database } from "../db/index.ts"
import type { SlotwiseEnv } from "../env.ts"
import { describeError, logLine } from "../log.ts"
import type { Job } from "./definition.ts"
import { handOff, queueOf } from "./hand-off.ts"
import { jobInvocation } from "./invocation.ts"
import { withoutPaused } from "./pauses.ts"
import { D1_DEADLINE_MS, type RunDeps, type RunResult, runIn } from "./run.ts"
import { dueAt, slotOf } from "./slot.ts"

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
 * Runs, concurrently, every job due in the minute of `scheduledTime`. Each run is bounded by
 * its own timeout, so one hang or failure never holds up another. Never throws.
 */
export async function beat(
  jobs: readonly Job[],
  scheduledTime: number,
  env: SlotwiseEnv,
  options: Pick<RunDeps, "waitUntil" | "d1DeadlineMs" | "now"> = {},
): Promise<Array<{ job: string } & RunResult>> {
  try {
    const slot = slotOf(scheduledTime)
    const due = await withoutPaused(database(env.DB), dueAt(jobs, slot), slot, logLine)
    const shared = jobInvocation(env.DB, {
      deadlineMs: options.d1DeadlineMs ?? D1_DEADLINE_MS,
      ...(options.now === undefined ? {} : { now: options.now }),
    })
    const settled = await Promise.allSettled(due.map((job) => runIn(job, slot, { env, ...options }, shared)))
    return settled.flatMap((result, i) => {
      const job = (due[i] as Job).name
      if (result.status === "fulfilled") return [{ job, ...result.value }]
      logLine("error", "job.run", { job, scheduledTime, outcome: "failed", error: describeError(result.reason) })
      return []
    })
  } catch (error) {
    logLine("error", "heartbeat failed", { scheduledTime, error: describeError(error) })
    return []
  }
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
      await handOff(due, controller.scheduledTime, queueOf(env, binding), binding)
      return
    }
    await beat(jobs, controller.scheduledTime, env, { ...deps, waitUntil: ctx.waitUntil.bind(ctx) })
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
