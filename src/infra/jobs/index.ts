// The heartbeat's parts, for the engine's own callers (the container, admin) and tests; not in `Jobs`.

export type { Job, JobContext, JobDefinition } from "./definition.ts"
export { JobDefinitionError } from "./definition.ts"
export { handOff, type JobQueue, QueueBindingError, queueOf } from "./hand-off.ts"
export { beat, HEARTBEAT_CRON, type HeartbeatOptions } from "./heartbeat.ts"
export { batchesOf, type JobMessage, jobMessages, parseJobMessage } from "./job-message.ts"
// The claim and the lease queries (slot-claim.ts, lease.ts) name drizzle types, so callers import them by path:
// this barrel reaches the published declarations, which never import drizzle's.
export { type LeaseStatus, leaseStatus } from "./lease-status.ts"
export { AHEAD_AFTER_MS, type HeartbeatLiveness, type HeartbeatStatus, liveness, MISSED_AFTER_MS } from "./liveness.ts"
export * as Jobs from "./namespace.ts"
export { handleMessages, type MessageResult, type QueueOptions } from "./queue-handler.ts"
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
export { dueAt, slotOf } from "./slot.ts"
export { TIMELINE_LENGTH, timeline } from "./timeline.ts"
