import { make } from "./definition.ts"
import { beat, heartbeat } from "./heartbeat.ts"
import { registry } from "./registry.ts"
import { run } from "./run.ts"
import { dueAt, slotOf } from "./slot.ts"

/**
 * Recurring jobs declared in code: a job is a value (`Jobs.make`), the Worker's list is checked
 * once (`Jobs.registry`), and the heartbeat runs each slot's due jobs through `Jobs.run`, the one
 * boundary (lease if exclusive, timeout, one log line).
 *
 * @example
 * ```ts
 * export const closeExpiredTrials = Jobs.make({
 *   name: "billing.close-expired-trials",
 *   cron: "0 3 * * *",
 *   exclusive: true,
 *   timeout: "5 minutes",
 *   run: (slot, ctx) => closeDueAt(ctx.env, slot),
 * })
 * export const jobs = Jobs.registry([closeExpiredTrials])
 * export default { fetch: app.fetch, scheduled: Jobs.heartbeat(jobs) }
 * ```
 */
export const Jobs = { make, run, registry, beat, heartbeat, dueAt, slotOf }

export { type ClaimRequest, claimStatement } from "./claim.ts"
export type { Job, JobContext, JobDefinition } from "./definition.ts"
export { JobDefinitionError } from "./definition.ts"
export { HEARTBEAT_CRON } from "./heartbeat.ts"
export { claimSlot, forceRelease, type LeaseStatus, leaseStatus, listLeases, releaseSlot } from "./lease.ts"
export { AHEAD_AFTER_MS, type Heartbeat, type HeartbeatStatus, heartbeat, MISSED_AFTER_MS } from "./liveness.ts"
export {
  lastRunOf,
  RUN_ERROR_MAX,
  RUN_HISTORY_LENGTH,
  RUN_SUMMARY_MAX_BYTES,
  type RunOutcome,
  type RunRecord,
  runsOf,
  type SlotEntry,
  type SlotStatus,
  summaryOf,
} from "./record.ts"
export { DuplicateJobError } from "./registry.ts"
export type { RunDeps, RunResult, RunStatus } from "./run.ts"
export { TIMELINE_LENGTH, timeline } from "./timeline.ts"
