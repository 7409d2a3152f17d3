// The heartbeat's parts, for the engine's own callers (the container, admin) and tests; not in `Jobs`.

export type { Job, JobContext, JobDefinition } from "./definition.ts"
export { JobDefinitionError } from "./definition.ts"
export { handOff, type JobQueue, QueueBindingError, queueOf } from "./hand-off.ts"
export { beat, HEARTBEAT_CRON, type HeartbeatOptions } from "./heartbeat.ts"
export { batchesOf, type JobMessage, jobMessages, parseJobMessage } from "./job-message.ts"
// The claim and the lease queries (claim.ts, lease.ts) name drizzle types, so callers import them by path:
// this barrel reaches the published declarations, which never import drizzle's.
export { type LeaseStatus, leaseStatus } from "./lease-status.ts"
export { AHEAD_AFTER_MS, type Heartbeat, type HeartbeatStatus, liveness, MISSED_AFTER_MS } from "./liveness.ts"
export * as Jobs from "./public.ts"
export { consume, type MessageResult, type QueueOptions } from "./queue-consumer.ts"
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
