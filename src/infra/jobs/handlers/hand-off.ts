import type { SlotwiseEnv } from "../../env.ts"
import { describeError, logLine } from "../../log.ts"
import type { Job } from "../contract/definition.ts"
import type { SkipReason } from "../contract/hour-entry.ts"
import { batchesOf, type JobMessage, jobMessages } from "../contract/job-message.ts"
import { dueAt, slotOf } from "../contract/slot.ts"
import type { SlotSkip } from "../protocol/slot-release.ts"

/** The part of a Queue producer binding the hand-off uses. */
export type JobQueue = Pick<Queue<JobMessage>, "sendBatch">

/** The binding `Jobs.heartbeat`'s `queue` option names is missing from env, or is not a Queue producer. */
export class QueueBindingError extends Error {
  /** Always "QueueBindingError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "QueueBindingError"
}

/**
 * The Queue producer binding `binding` names in the Worker's env, or a QueueBindingError naming it:
 * a heartbeat told to hand its jobs to a queue never runs them in its own invocation instead.
 */
export function queueOf(env: SlotwiseEnv, binding: string): JobQueue {
  const queue = (env as unknown as Record<string, unknown>)[binding]
  if (queue === undefined || queue === null) {
    throw new QueueBindingError(
      `Jobs.heartbeat: queue "${binding}" is not in the Worker's env: declare it under [[queues.producers]] (binding = "${binding}") in wrangler.toml`,
    )
  }
  if (typeof (queue as Partial<JobQueue>).sendBatch !== "function") {
    throw new QueueBindingError(
      `Jobs.heartbeat: queue "${binding}" is not a Queue producer binding (it has no sendBatch)`,
    )
  }
  return queue as JobQueue
}

/**
 * Sends one message `{ job, slot }` per job due in the minute of `scheduledTime`, in batches within
 * Queues' limits, and runs nothing. A batch the queue refuses is logged once with its jobs and not
 * sent again: the next slot does their work, as for a failed run. Each slot not sent says so in its own
 * line (reason "queue refused" or "over capacity") and is handed to `skipped` for its history entry. Never throws.
 */
export function handOff(
  jobs: readonly Job[],
  scheduledTime: number,
  queue: JobQueue,
  binding: string,
  maxCalls = Number.POSITIVE_INFINITY,
  skipped?: (skip: SlotSkip) => void,
): Promise<{ sent: number; failed: number }> {
  const slot = slotOf(scheduledTime)
  return handOffDue(dueAt(jobs, slot), slot, queue, binding, maxCalls, skipped)
}

/**
 * Sends one message `{ job, slot }` for each of `due`, as handOff does; at most `maxCalls` sendBatch calls
 * (each is a subrequest of the invocation): a job past them is not sent, and says so in one error line.
 */
export async function handOffDue(
  due: readonly Job[],
  slot: Date,
  queue: JobQueue,
  binding: string,
  maxCalls = Number.POSITIVE_INFINITY,
  skipped: (skip: SlotSkip) => void = () => {},
): Promise<{ sent: number; failed: number }> {
  const fields = { queue: binding, slot: slot.toISOString() }
  const exclusive = new Set(due.filter((job) => job.exclusive).map((job) => job.name))
  // A slot not handed off ends here: one line, and (an exclusive job's, which has a history) its skipped entry.
  const skip = (name: string, reason: SkipReason, extra: Record<string, unknown>) => {
    logLine("error", "job.run", { job: name, ...fields, outcome: "skipped", reason, ...extra })
    if (exclusive.has(name)) skipped({ name, slot: slot.getTime(), reason })
  }
  try {
    const all = batchesOf(jobMessages(due, slot))
    const batches = all.slice(0, maxCalls)
    let unsent = 0
    for (const message of all.slice(maxCalls).flat()) {
      unsent++
      skip(message.job, "over capacity", { maxCalls })
    }
    const settled = await Promise.allSettled(
      batches.map((batch) => queue.sendBatch(batch.map((body) => ({ body, contentType: "json" })))),
    )
    let sent = 0
    let failed = 0
    settled.forEach((result, i) => {
      const batch = batches[i] as JobMessage[]
      if (result.status === "fulfilled") {
        sent += batch.length
        return
      }
      failed += batch.length
      const names = batch.map((message) => message.job)
      const error = describeError(result.reason)
      logLine("error", "jobs.hand-off", { ...fields, outcome: "failed", jobs: names, error })
      for (const name of names) skip(name, "queue refused", { error })
    })
    if (sent > 0) logLine("info", "jobs.hand-off", { ...fields, outcome: "sent", sent })
    return { sent, failed: failed + unsent }
  } catch (error) {
    logLine("error", "jobs.hand-off", { ...fields, outcome: "failed", error: describeError(error) })
    return { sent: 0, failed: 0 }
  }
}
