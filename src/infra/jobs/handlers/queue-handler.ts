import type { SlotwiseEnv } from "../../env.ts"
import { describeError, logLine } from "../../log.ts"
import type { Job } from "../contract/definition.ts"
import { parseJobMessage } from "../contract/job-message.ts"
import { capacityOf, type JobsCapacity } from "../contract/registry.ts"
import { plannedInvocation } from "../protocol/invocation.ts"
import { D1_DEADLINE_MS, type RunDeps, type RunResult, runIn } from "./run.ts"

/** What `Jobs.queue` takes besides the jobs: how long each run's claim and release wait for D1. */
export type QueueOptions = Pick<RunDeps, "d1DeadlineMs">

/** One delivered message's fate: the run it got, or the field of its body that was wrong. */
export type MessageResult = { id: string; job: string } & RunResult

/**
 * Runs each message's job through `Jobs.run` for the slot the message carries, concurrently (the batch's
 * exclusive slots claimed in one statement, their releases group-committed), and
 * acks every message once its run has ended, whatever the outcome: a failed or timed-out run is
 * logged once and the next slot does the work, never a retry. A body that names no job of `jobs`
 * or no valid slot is acked with one error line naming the field. Never throws.
 */
export async function handleMessages(
  jobs: readonly Job[],
  batch: MessageBatch<unknown>,
  env: SlotwiseEnv,
  options: Pick<RunDeps, "waitUntil" | "d1DeadlineMs" | "now"> & { capacity?: JobsCapacity } = {},
): Promise<MessageResult[]> {
  const byName = new Map(jobs.map((job) => [job.name, job]))
  // The batch's runs share one invocation: their slots claimed in one statement, their releases group-committed.
  const { capacity = capacityOf(jobs), ...deps } = options
  const shared = plannedInvocation(env.DB, capacity, deps.d1DeadlineMs ?? D1_DEADLINE_MS, deps.now)
  const results = await Promise.all(
    batch.messages.map(async (message): Promise<MessageResult[]> => {
      try {
        const parsed = parseJobMessage(message.body, byName)
        if (!parsed.ok) {
          logLine("error", "job.message", {
            queue: batch.queue,
            messageId: message.id,
            field: parsed.field,
            reason: parsed.reason,
          })
          return []
        }
        // The lease makes a second delivery of an exclusive job's slot a no-op ("slot taken").
        const result = await runIn(parsed.job, parsed.slot, { env, ...deps }, shared)
        return [{ id: message.id, job: parsed.job.name, ...result }]
      } catch (error) {
        logLine("error", "job.message", { queue: batch.queue, messageId: message.id, error: describeError(error) })
        return []
      } finally {
        // Redelivering would replay the run: the slot is settled here, as the in-invocation heartbeat settles it.
        message.ack()
      }
    }),
  )
  return results.flat()
}

/**
 * A Worker's `queue` handler for the Queue that `Jobs.heartbeat(jobs, { queue })` hands its due
 * jobs to: each message `{ job, slot }` runs that job through `Jobs.run` for that slot, then is
 * acked whatever the run's outcome (never retried: the next slot does the work). A body naming no
 * job of `jobs` or no valid slot is acked with one error line naming the field. Configure the
 * Queue's `[[queues.consumers]]` with `max_batch_size = 1` so each job runs in its own invocation, with its own CPU
 * limit; a larger batch's messages share one invocation and its plan's limits (the list's, `Jobs.registry`), their
 * slots claimed in one statement and their releases in one D1 batch: 2 D1 queries for the batch.
 *
 * @example
 * ```ts
 * // wrangler.toml: [[queues.producers]] binding = "JOBS", queue = "slotwise-jobs"
 * //               [[queues.consumers]] queue = "slotwise-jobs", max_batch_size = 1
 * export default {
 *   fetch: app.fetch,
 *   scheduled: Jobs.heartbeat(jobs, { queue: "JOBS" }),
 *   queue: Jobs.queue(jobs),
 * } satisfies ExportedHandler<Env>
 * ```
 */
export const queue = (jobs: readonly Job[], options: QueueOptions = {}) => {
  // Resolved when the module loads: a list whose jobs carry different plans throws now.
  const capacity = capacityOf(jobs)
  return async (batch: MessageBatch<unknown>, env: SlotwiseEnv, ctx: ExecutionContext): Promise<void> => {
    await handleMessages(jobs, batch, env, { ...options, capacity, waitUntil: ctx.waitUntil.bind(ctx) })
  }
}
