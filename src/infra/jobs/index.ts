// The public names of recurring jobs, each listed once; the entries pass them on with `export *`.
// The engine's own parts (beat, slotOf, the lease and record queries, liveness, the timeline, the queue handler's
// internals) are imported by path: the slot claim and the lease queries name drizzle types, which the published
// declarations never import.

export type { PlanLimits, PlanName } from "./capacity.ts"
export type { Job, JobContext, JobDefinition } from "./definition.ts"
export { JobDefinitionError } from "./definition.ts"
export { QueueBindingError } from "./hand-off.ts"
export type { HeartbeatOptions } from "./heartbeat.ts"
export type { JobMessage } from "./job-message.ts"
export * as Jobs from "./namespace.ts"
export type { QueueOptions } from "./queue-handler.ts"
export type { RunOutcome, RunRecord, SlotEntry, SlotStatus } from "./record.ts"
export type { RegistryOptions } from "./registry.ts"
export { DuplicateJobError, JobCapacityError, PlanDeclarationError } from "./registry.ts"
export type { RunDeps, RunResult, RunStatus } from "./run.ts"
