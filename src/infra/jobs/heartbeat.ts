import type { SlotwiseEnv } from "../env.ts"
import { describeError, logLine } from "../log.ts"
import type { Job } from "./definition.ts"
import { type RunDeps, type RunResult, run } from "./run.ts"
import { dueAt, slotOf } from "./slot.ts"

/** The one Cron Trigger in wrangler.toml; every job is matched against its minute. */
export const HEARTBEAT_CRON = "* * * * *"

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
    const due = dueAt(jobs, slot)
    const settled = await Promise.allSettled(due.map((job) => run(job, slot, { env, ...options })))
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
 * A Worker's `scheduled` handler: the heartbeat of the one `* * * * *` Cron Trigger, running the
 * jobs due each minute (a late claim's release kept alive by `ctx.waitUntil`).
 *
 * @example
 * ```ts
 * export default { fetch: app.fetch, scheduled: Jobs.heartbeat(jobs) } satisfies ExportedHandler<Env>
 * ```
 */
export const heartbeat =
  (jobs: readonly Job[], options: Pick<RunDeps, "d1DeadlineMs"> = {}) =>
  async (controller: ScheduledController, env: SlotwiseEnv, ctx: ExecutionContext): Promise<void> => {
    await beat(jobs, controller.scheduledTime, env, { ...options, waitUntil: ctx.waitUntil.bind(ctx) })
  }
