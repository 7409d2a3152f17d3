/**
 * `slotwise/portable`: the parts of slotwise that run on every runtime profile, the Worker and a
 * Node container alike. Code shared by both (jobs, consumers, routes) imports from here; the
 * `slotwise` entry adds what only a Worker has (the Durable Object class, Workers tracing), and
 * `slotwise/node` runs the container.
 */
export { isTimezone } from "./cron.ts"
export type { Duration } from "./duration.ts"
export type { SlotwiseEnv } from "./env.ts"
export { streamsRequired } from "./http/streams-required.ts"
export {
  DuplicateJobError,
  type HeartbeatOptions,
  type Job,
  type JobContext,
  type JobDefinition,
  JobDefinitionError,
  type JobMessage,
  Jobs,
  QueueBindingError,
  type QueueOptions,
  type RunDeps,
  type RunOutcome,
  type RunRecord,
  type RunResult,
  type RunStatus,
  type SlotEntry,
} from "./jobs/index.ts"
export { describeError, type Logger } from "./log.ts"
export { ONCE_RETENTION_MS, type OnceResult, type OnceStatement } from "./once.ts"
export * as Retry from "./retry.ts"
export {
  type Consumer,
  type ConsumerDefinition,
  ConsumerDefinitionError,
  type Delivery,
  type DeliveryContext,
  type Json,
  type Outcome,
  type ScheduleDefinition,
  ScheduleDefinitionError,
  type ScheduleEvent,
  ScheduleNotFoundError,
  type ScheduleState,
  ScheduleStateError,
  Schedules,
  type ScheduleView,
  type StreamClient,
  type StreamClientOptions,
  StreamUnavailableError,
} from "./schedules/index.ts"
export { type SpanLike, type Tracer, useTracer } from "./tracing/index.ts"
