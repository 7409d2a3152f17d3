import { make } from "./definition.ts"
import { beat } from "./heartbeat.ts"
import { registry } from "./registry.ts"
import { run } from "./run.ts"
import { dueAt, slotOf } from "./slot.ts"

export const Jobs = { make, run, registry, beat, dueAt, slotOf }

export type { Job, JobContext, JobDefinition } from "./definition.ts"
export { JobDefinitionError } from "./definition.ts"
export { HEARTBEAT_CRON } from "./heartbeat.ts"
export { claimSlot, forceRelease, type LeaseStatus, leaseStatus, listLeases, releaseSlot } from "./lease.ts"
export { DuplicateJobError } from "./registry.ts"
export type { RunDeps, RunResult, RunStatus } from "./run.ts"
