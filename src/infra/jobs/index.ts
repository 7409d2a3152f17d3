// The public names of recurring jobs, each listed once; the entries pass them on with `export *`.
// The engine's own parts (beat, slotOf, the lease and record queries, liveness, the timeline, the queue handler's
// internals) are imported by path: the slot claim and the lease queries name drizzle types, which the published
// declarations never import.

export type { PlanLimits, PlanName } from "./contract/capacity.ts"
export type { Job, JobContext, JobDefinition } from "./contract/definition.ts"
export { JobDefinitionError } from "./contract/definition.ts"
export type { JobMessage } from "./contract/job-message.ts"
export type { RunOutcome, RunRecord, SlotEntry, SlotStatus } from "./contract/record.ts"
export type { RegistryOptions } from "./contract/registry.ts"
export { DuplicateJobError, JobCapacityError, PlanDeclarationError } from "./contract/registry.ts"
export { QueueBindingError } from "./handlers/hand-off.ts"
export type { HeartbeatOptions } from "./handlers/heartbeat.ts"
export type { QueueOptions } from "./handlers/queue-handler.ts"
export type { RunDeps, RunResult, RunStatus } from "./handlers/run.ts"
export * as Jobs from "./namespace.ts"
