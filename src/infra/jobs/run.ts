import { database } from "../db/index.ts"
import { describeError, logger, logLine } from "../log.ts"
import type { Job, JobContext } from "./definition.ts"
import { claimSlot, releaseSlot } from "./lease.ts"
import { slotOf } from "./slot.ts"

export type RunStatus = "ran" | "skipped" | "failed" | "timed-out"

export interface RunResult {
  status: RunStatus
  runId: string
  ms: number
}

export interface RunDeps {
  env: Env
  now?: () => number
  runId?: string
}

export class JobTimeoutError extends Error {
  override name = "JobTimeoutError"
}

/**
 * The one boundary around a job: claim the slot if exclusive, run under the timeout,
 * release, and write one log line. It never throws and never retries: a failed slot is
 * healed by the next one (seed Decision 4).
 */
export async function run(job: Job, slotTime: Date, deps: RunDeps): Promise<RunResult> {
  const now = deps.now ?? Date.now
  const runId = deps.runId ?? crypto.randomUUID()
  const slot = slotOf(slotTime)
  const started = now()
  const fields = { job: job.name, slot: slot.toISOString(), runId }
  const finish = (status: RunStatus, extra: Record<string, unknown> = {}): RunResult => {
    const ms = Math.max(0, now() - started)
    logLine(status === "ran" ? "info" : "error", "job.run", { ...fields, outcome: status, ms, ...extra })
    return { status, runId, ms }
  }
  const db = database(deps.env.DB)

  if (job.exclusive) {
    let claimed: boolean
    try {
      claimed = await claimSlot(db, {
        name: job.name,
        slot: slot.getTime(),
        now: now(),
        leaseMs: job.leaseMs,
        holder: runId,
      })
    } catch (error) {
      return finish("skipped", { reason: "claim failed", error: describeError(error) })
    }
    // Another run owns this slot (or already ran it): do nothing, log nothing.
    if (!claimed) return { status: "skipped", runId, ms: Math.max(0, now() - started) }
  }

  const controller = new AbortController()
  const ctx: JobContext = { env: deps.env, signal: controller.signal, runId, slot, log: logger(fields) }
  const outcome = await runWithin(job, slot, ctx, controller)

  let releaseError: string | undefined
  if (job.exclusive) {
    try {
      await releaseSlot(db, job.name, runId)
    } catch (error) {
      // The lease expires by itself at timeout + 1 minute; last_slot already guards the slot.
      releaseError = describeError(error)
    }
  }
  return finish(outcome.status, {
    ...(outcome.error === undefined ? {} : { error: describeError(outcome.error) }),
    ...(releaseError === undefined ? {} : { releaseError }),
  })
}

async function runWithin(
  job: Job,
  slot: Date,
  ctx: JobContext,
  controller: AbortController,
): Promise<{ status: "ran" | "failed" | "timed-out"; error?: unknown }> {
  let timer: number | undefined
  const deadline = new Promise<"timed-out">((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new JobTimeoutError(`job "${job.name}" passed its ${job.timeoutMs} ms timeout`))
      resolve("timed-out")
    }, job.timeoutMs)
  })
  try {
    const work = Promise.resolve().then(() => job.run(slot, ctx))
    // A job that ignores its signal keeps running, but the boundary stops waiting for it.
    work.catch(() => {})
    const status = await Promise.race([work.then(() => "ran" as const), deadline])
    return { status }
  } catch (error) {
    return { status: "failed", error }
  } finally {
    if (timer !== undefined) clearTimeout(timer)
  }
}
