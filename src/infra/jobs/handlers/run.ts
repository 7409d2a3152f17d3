import { TIMED_OUT } from "../../deadline.ts"
import { type SlotwiseEnv, workerEnv } from "../../env.ts"
import { describeError, logger, logLine } from "../../log.ts"
import { commitOnce, jobItemKey } from "../../once.ts"
import { activeTracer, exceptionOf, type SpanLike, type Tracer } from "../../tracing/index.ts"
import type { Job, JobContext } from "../contract/definition.ts"
import { cutError, encodeSummary, type RunOutcome, type RunRecord } from "../contract/record.ts"
import { slotOf } from "../contract/slot.ts"
import { missedBetween } from "../history/history.ts"
import type { ClaimAnswer, ClaimWon } from "../protocol/claim-batch.ts"
import { type JobInvocation, jobInvocation } from "../protocol/invocation.ts"
import { releaseCost } from "../protocol/slot-release.ts"

/** The most statements one run's release or skip adds to its batch: a flush, the release and a sweep. */
const RELEASE_MOST = 3

/** How `Jobs.run` ended: it ran, it was skipped (no claim, nothing run), it threw, or its timeout passed. */
export type RunStatus = "ran" | "skipped" | "failed" | "timed-out"

/** What `Jobs.run` answers; it never throws. */
export interface RunResult {
  /** How the run ended. */
  status: RunStatus
  /** The run's id (the lease's holder when exclusive), as in its log line. */
  runId: string
  /** How long it took, in milliseconds. */
  ms: number
  /**
   * Why a run was skipped: another run holds or already ran the slot; an earlier slot's run still holds the
   * lease; the heartbeat had no room left for it (its plan's capacity, no overflow queue); the claim failed or got no answer in time.
   */
  reason?: "slot taken" | "lease held" | "over capacity" | "claim failed" | "claim timed out" | "invalid slot"
}

/** What `Jobs.run` needs beside the job and the slot: the env, and what a test or a runtime profile sets. */
export interface RunDeps {
  /** The Worker's env: slotwise reads its DB binding, the job is handed all of it. */
  env: SlotwiseEnv
  /**
   * A clock for tests: it times the run and stands in for the database's clock in the claim. Unset,
   * Date.now times the run and the database's own clock referees the claim.
   */
  now?: () => number
  /** The run's id; a fresh UUID when unset. */
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
/** The longest a D1 query runs (Cloudflare's limit): a late claim's answer is not awaited past it. */
export const D1_QUERY_MAX_MS = 30_000

/** A run whose release found its lease another's: it ran, and nothing recorded it. */
const NOT_HELD = "not recorded: lease taken"

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
  return runIn(job, slotTime, deps)
}

/**
 * `Jobs.run` as one of an invocation's runs (a heartbeat's, a queue batch's): its claim and release made
 * with the others' (invocation.ts). Alone, a run is an invocation of one.
 *
 * @internal The engine's own: its batches reach the database's query builder, which no adopter's types should need.
 */
export function runIn(job: Job, slotTime: Date, deps: RunDeps, invocation?: JobInvocation): Promise<RunResult> {
  const runId = deps.runId ?? crypto.randomUUID()
  return (deps.tracer ?? activeTracer()).enterSpan("job.run", async (span) => {
    span.setAttribute("job.name", job.name)
    span.setAttribute("job.run_id", runId)
    if (slotTime instanceof Date && !Number.isNaN(slotTime.getTime())) {
      span.setAttribute("job.slot", slotOf(slotTime).toISOString())
    }
    const result = await attempt(job, slotTime, { ...deps, runId }, span, invocation)
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

/** A test's clock, which stands in for the database's in the claim. */
const clockOf = (deps: RunDeps) => (deps.now === undefined ? {} : { now: deps.now })

async function attempt(
  job: Job,
  slotTime: Date,
  deps: RunDeps & { runId: string },
  span: SpanLike,
  invocation: JobInvocation | undefined,
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
  const shared = invocation ?? jobInvocation(deps.env?.DB, { deadlineMs: deadline, ...clockOf(deps) })
  const finish = (
    status: RunStatus,
    extra: Record<string, unknown> = {},
    reason?: RunResult["reason"],
    ms = Math.max(0, now() - started),
    missed = 0,
  ): RunResult => {
    const why = reason === undefined ? {} : { reason }
    const level = status === "ran" && extra.releaseError === undefined ? "info" : "error"
    logLine(level, "job.run", { ...fields, outcome: status, ms, ...why, ...extra })
    shared.record(deps.env, {
      job: job.name,
      slot: slot.getTime(),
      outcome: status,
      ms,
      lateMs: started - slot.getTime(),
      missed,
    })
    return { status, runId, ms, ...why }
  }

  let claimed: ClaimWon | undefined
  if (job.exclusive) {
    // Kept before the claim is asked, so no job's query can take it: the most its release or skip may need.
    shared.keep(RELEASE_MOST)
    // The database's clock referees the claim; a test's injected clock stands in for it.
    const claiming = shared.claims.claim({ name: job.name, slot: slot.getTime(), leaseMs: job.leaseMs, holder: runId })
    let answer: ClaimAnswer | typeof TIMED_OUT
    try {
      answer = await shared.within(claiming, deadline)
    } catch (error) {
      span.recordException(exceptionOf(error))
      shared.keep(-RELEASE_MOST)
      // Not released: a claim that threw has no later answer to follow, so a release now could land
      // before a commit still in flight; a lease it may have left expires at timeout + 1 minute.
      return finish("skipped", { error: describeError(error) }, "claim failed")
    }
    if (answer === TIMED_OUT) {
      // The claim may still commit: once it answers that it did, its lease is ended and its slot recorded as
      // skipped with the invocation's releases (within their room), so the next slot is not refused.
      shared.releases.opened()
      const late = { name: job.name, slot: slot.getTime(), reason: "claim timed out" as const, holder: runId }
      const release = shared
        .within(claiming, D1_QUERY_MAX_MS)
        .then((answered) =>
          answered !== TIMED_OUT && answered.won ? shared.releases.skip(late, true) : shared.releases.closed(),
        )
        .catch(() => shared.releases.closed())
      deps.waitUntil?.(release)
      return finish("skipped", { deadlineMs: deadline }, "claim timed out")
    }
    if (!answer.won) {
      const ms = Math.max(0, now() - started)
      const { taken, held } = answer
      // Another run owns this slot (or already ran it): do nothing, log nothing.
      shared.keep(taken || held ? 2 - RELEASE_MOST : -RELEASE_MOST)
      if (!taken && !held) return { status: "skipped", runId, ms, reason: "slot taken" }
      // An earlier slot's run still holds the lease (running long, or its release failed), or a later slot was
      // claimed first and no run recorded this one (no run will have it): said once, here, and in its history.
      const reason = taken ? "slot taken" : "lease held"
      const by = taken
        ? { takenBy: { slot: new Date(taken.slot).toISOString() } }
        : { heldBy: { slot: new Date((held as { slot: number }).slot).toISOString(), runId: held?.holder } }
      logLine("warn", "job.run", { ...fields, outcome: "skipped", reason, ...by })
      await shared.releases.skip({ name: job.name, slot: slot.getTime(), reason })
      return { status: "skipped", runId, ms, reason }
    }
    claimed = answer
    shared.keep(releaseCost({ ...answer, record: { slot: slot.getTime() } }) - RELEASE_MOST)
    shared.releases.opened()
  }

  const env = shared.jobEnv(deps.env)
  const once: JobContext["once"] = async (itemKey, statements) =>
    commitOnce(env.DB, jobItemKey(job.name, itemKey), statements, now())
  const outcome = await runWithin(job, slot, workerEnv(env), runId, logger(fields), once, shared)
  // A job may throw undefined: the outcome, not the value thrown, says whether it failed.
  if (outcome.status === "failed") span.recordException(exceptionOf(outcome.error))

  // Measured once: the log line and the stored record carry the same ms.
  const finishedAt = now()
  const ms = Math.max(0, finishedAt - started)
  let releaseError: string | undefined
  let missed = 0
  if (claimed) {
    const record: RunRecord = {
      slot: slot.getTime(),
      runId,
      outcome: outcome.status,
      ms,
      finishedAt,
      error: errorOf(job, outcome),
    }
    const ended = await shared.releases.release({
      name: job.name,
      holder: runId,
      record,
      summary: outcome.summary,
      hourStart: claimed.hourStart,
      earlier: claimed.earlier,
    })
    // A failed release leaves the lease to expire by itself at timeout + 1 minute; last_slot already guards the slot.
    if ("error" in ended) releaseError = ended.error
    else if (!ended.released) releaseError = NOT_HELD
    missed = missedBetween(job.schedule, claimed.lastRunSlot, record.slot)
  }
  return finish(
    outcome.status,
    {
      ...(outcome.status === "failed" ? { error: describeError(outcome.error) } : {}),
      // The run ran but is not recorded, and its lease is held until it expires: an error line, not the run's info.
      ...(releaseError === undefined
        ? {}
        : { recorded: false, releaseError, ...(releaseError === NOT_HELD ? {} : { leaseHeldUntilExpiry: true }) }),
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
  shared: Pick<JobInvocation, "within">,
): Promise<{ status: RunOutcome; error?: unknown; summary: string | null }> {
  const controller = new AbortController()
  let summary: string | null = null
  const report = (value: Record<string, unknown>) => {
    summary = encodeSummary(value)
  }
  const ctx: JobContext = { env, signal: controller.signal, runId, slot, log, report, once }
  try {
    // A job that ignores its signal keeps running, but the boundary stops waiting for it.
    const ran = await shared.within(
      Promise.resolve().then(() => job.run(slot, ctx)),
      job.timeoutMs,
      () => controller.abort(new JobTimeoutError(`job "${job.name}" passed its ${job.timeoutMs} ms timeout`)),
    )
    return { status: ran === TIMED_OUT ? "timed-out" : "ran", summary }
  } catch (error) {
    return { status: "failed", error, summary }
  }
}
