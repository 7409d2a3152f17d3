import { database } from "../db/index.ts"
import { TIMED_OUT, within } from "../deadline.ts"
import { type SlotwiseEnv, workerEnv } from "../env.ts"
import { describeError, logger, logLine } from "../log.ts"
import { recordRun } from "../metrics/index.ts"
import { commitOnce, jobItemKey } from "../once.ts"
import { activeTracer, exceptionOf, type SpanLike, type Tracer } from "../tracing/index.ts"
import type { Job, JobContext } from "./definition.ts"
import { missedBetween } from "./history.ts"
import { claimSlot, endRun, releaseSlot } from "./lease.ts"
import { cutError, encodeSummary, type RunOutcome, type RunRecord } from "./record.ts"
import { slotOf } from "./slot.ts"

export type RunStatus = "ran" | "skipped" | "failed" | "timed-out"

export interface RunResult {
  status: RunStatus
  runId: string
  ms: number
  /** Why a run was skipped: another run holds or already ran the slot, the claim failed or got no answer in time. */
  reason?: "slot taken" | "claim failed" | "claim timed out" | "invalid slot"
}

export interface RunDeps {
  /** The Worker's env: slotwise reads its DB binding, the job is handed all of it. */
  env: SlotwiseEnv
  /**
   * A clock for tests: it times the run and stands in for the database's clock in the claim. Unset,
   * Date.now times the run and the database's own clock referees the claim.
   */
  now?: () => number
  runId?: string
  /** The caller's ctx.waitUntil: keeps a late claim's release going after the run has answered. */
  waitUntil?: (promise: Promise<unknown>) => void
  /** How long a claim or release waits for D1 (default D1_DEADLINE_MS). */
  d1DeadlineMs?: number
  /** Where the run's `job.run` span goes (default: the tracer the runtime profile installed). */
  tracer?: Tracer
}

export class JobTimeoutError extends Error {
  override name = "JobTimeoutError"
}

/** How long a claim or release waits for D1 before the run gives up on it (never retried). */
export const D1_DEADLINE_MS = 5_000

/**
 * The one boundary around a job: claim the slot if exclusive, run under the timeout,
 * release, and write one log line, all inside a `job.run` span (job, slot, run id and outcome
 * as attributes, an error recorded; the status unset when another run holds the slot). It never throws and never retries: a failed slot is healed
 * by the next one (ARCHITECTURE.md, "A run").
 *
 * @example
 * ```ts
 * // Any time within a minute names that minute's slot.
 * const { status } = await Jobs.run(closeExpiredTrials, new Date(), { env })
 * ```
 */
export function run(job: Job, slotTime: Date, deps: RunDeps): Promise<RunResult> {
  const runId = deps.runId ?? crypto.randomUUID()
  return (deps.tracer ?? activeTracer()).enterSpan("job.run", async (span) => {
    span.setAttribute("job.name", job.name)
    span.setAttribute("job.run_id", runId)
    if (slotTime instanceof Date && !Number.isNaN(slotTime.getTime())) {
      span.setAttribute("job.slot", slotOf(slotTime).toISOString())
    }
    const result = await attempt(job, slotTime, { ...deps, runId }, span)
    span.setAttribute("job.outcome", result.status)
    if (result.reason !== undefined) span.setAttribute("job.reason", result.reason)
    // A slot another run holds is the claim working, not an outcome: the status stays unset, as the
    // OpenTelemetry spec asks of a library for an operation that neither succeeded nor failed.
    if (result.reason === "slot taken") return result
    span.setStatus(
      result.status === "ran" ? { code: "ok" } : { code: "error", message: result.reason ?? result.status },
    )
    return result
  })
}

async function attempt(
  job: Job,
  slotTime: Date,
  deps: RunDeps & { runId: string },
  span: SpanLike,
): Promise<RunResult> {
  const now = deps.now ?? Date.now
  const runId = deps.runId
  const started = now()
  if (!(slotTime instanceof Date) || Number.isNaN(slotTime.getTime())) {
    logLine("error", "job.run", { job: job.name, runId, outcome: "skipped", reason: "slot is not a valid Date" })
    return { status: "skipped", runId, ms: 0, reason: "invalid slot" }
  }
  const slot = slotOf(slotTime)
  const fields = { job: job.name, slot: slot.toISOString(), runId }
  const deadline = deps.d1DeadlineMs ?? D1_DEADLINE_MS
  const db = database(deps.env.DB)
  const finish = (
    status: RunStatus,
    extra: Record<string, unknown> = {},
    reason?: RunResult["reason"],
    ms = Math.max(0, now() - started),
    missed = 0,
  ): RunResult => {
    const why = reason === undefined ? {} : { reason }
    logLine(status === "ran" ? "info" : "error", "job.run", { ...fields, outcome: status, ms, ...why, ...extra })
    recordRun(deps.env, {
      job: job.name,
      slot: slot.getTime(),
      outcome: status,
      ms,
      lateMs: started - slot.getTime(),
      missed,
    })
    return { status, runId, ms, ...why }
  }

  if (job.exclusive) {
    // The database's clock referees the claim; a test's injected clock stands in for it.
    const referee = deps.now === undefined ? {} : { now: now() }
    const claim = { name: job.name, slot: slot.getTime(), leaseMs: job.leaseMs, holder: runId, ...referee }
    const claiming = claimSlot(db, claim)
    let claimed: boolean | typeof TIMED_OUT
    try {
      claimed = await within(claiming, deadline)
    } catch (error) {
      span.recordException(exceptionOf(error))
      // Not released: a claim that threw has no later answer to follow, so a release now could land
      // before a commit still in flight; a lease it may have left expires at timeout + 1 minute.
      return finish("skipped", { error: describeError(error) }, "claim failed")
    }
    if (claimed === TIMED_OUT) {
      // The claim may still commit: once it answers that it did, end that lease, so the next slot is not refused.
      const skipped = { skipped: { slot: slot.getTime(), at: now() } }
      const release = claiming
        .then((won) => won && within(releaseSlot(db, job.name, runId, skipped), deadline))
        .catch(() => {})
      deps.waitUntil?.(release)
      return finish("skipped", { deadlineMs: deadline }, "claim timed out")
    }
    // Another run owns this slot (or already ran it): do nothing, log nothing.
    if (!claimed) return { status: "skipped", runId, ms: Math.max(0, now() - started), reason: "slot taken" }
  }

  const once: JobContext["once"] = async (itemKey, statements) =>
    commitOnce(deps.env.DB, jobItemKey(job.name, itemKey), statements, now())
  const outcome = await runWithin(job, slot, workerEnv(deps.env), runId, logger(fields), once)
  // A job may throw undefined: the outcome, not the value thrown, says whether it failed.
  if (outcome.status === "failed") span.recordException(exceptionOf(outcome.error))

  // Measured once: the log line and the stored record carry the same ms.
  const finishedAt = now()
  const ms = Math.max(0, finishedAt - started)
  let releaseError: string | undefined
  let missed = 0
  if (job.exclusive) {
    const record: RunRecord = {
      slot: slot.getTime(),
      runId,
      outcome: outcome.status,
      ms,
      finishedAt,
      error: errorOf(job, outcome),
    }
    try {
      const ended = await within(endRun(db, job.name, runId, { record, summary: outcome.summary }), deadline)
      if (ended === TIMED_OUT) releaseError = `no answer within ${deadline} ms`
      else missed = missedBetween(job.schedule, ended.previousRunSlot, record.slot)
    } catch (error) {
      // The lease expires by itself at timeout + 1 minute; last_slot already guards the slot.
      releaseError = describeError(error)
    }
  }
  return finish(
    outcome.status,
    {
      ...(outcome.status === "failed" ? { error: describeError(outcome.error) } : {}),
      ...(releaseError === undefined ? {} : { releaseError }),
    },
    undefined,
    ms,
    missed,
  )
}

/** What the record says went wrong, cut to RUN_ERROR_MAX: the error thrown, or the timeout passed. */
function errorOf(job: Job, outcome: { status: RunOutcome; error?: unknown }): string | null {
  if (outcome.status === "timed-out") return `passed its ${job.timeoutMs} ms timeout`
  return outcome.status === "failed" ? cutError(describeError(outcome.error)) : null
}

async function runWithin(
  job: Job,
  slot: Date,
  env: Cloudflare.Env,
  runId: string,
  log: JobContext["log"],
  once: JobContext["once"],
): Promise<{ status: RunOutcome; error?: unknown; summary: string | null }> {
  const controller = new AbortController()
  let summary: string | null = null
  const report = (value: Record<string, unknown>) => {
    summary = encodeSummary(value)
  }
  const ctx: JobContext = { env, signal: controller.signal, runId, slot, log, report, once }
  try {
    // A job that ignores its signal keeps running, but the boundary stops waiting for it.
    const ran = await within(
      Promise.resolve().then(() => job.run(slot, ctx)),
      job.timeoutMs,
      () => controller.abort(new JobTimeoutError(`job "${job.name}" passed its ${job.timeoutMs} ms timeout`)),
    )
    return { status: ran === TIMED_OUT ? "timed-out" : "ran", summary }
  } catch (error) {
    return { status: "failed", error, summary }
  }
}
