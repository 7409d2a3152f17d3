/**
 * `slotwise/portable`: the parts of slotwise that run on every runtime profile, the Worker and a
 * Node container alike. Code shared by both (jobs, consumers, routes) imports from here; the
 * `slotwise` entry adds what only a Worker has (the Durable Object class, Workers tracing), and
 * `slotwise/node` runs the container.
 */
export { type CronSchedule, isTimezone } from "./cron.ts"
export type { Duration, DurationUnit } from "./duration.ts"
export type { SlotwiseEnv, StreamNamespace } from "./env.ts"
export { streamsRequired } from "./http/streams-required.ts"
export * from "./jobs/index.ts"
export { describeError, type LogFields, type Logger } from "./log.ts"
export { ONCE_RETENTION_MS, type OnceResult, type OnceStatement } from "./once.ts"
export * as Retry from "./retry.ts"
// Contract types schedules/index.ts does not list yet; the stream's RPC names them.
export type { EventsOptions, ListOptions, ScheduleField, Timing } from "./schedules/contract/definition.ts"
export type { DeliveryPoint, HistoryRange, StreamHistory } from "./schedules/contract/history.ts"
export {
  type Consumer,
  type ConsumerDefinition,
  ConsumerDefinitionError,
  type Delivery,
  type DeliveryContext,
  type Json,
  type Outcome,
  type Reply,
  type ReplyError,
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
  type StreamSummary,
  StreamUnavailableError,
} from "./schedules/index.ts"
export { type AttributeValue, type Exception, type SpanLike, type Tracer, useTracer } from "./tracing/index.ts"
