/**
 * `slotwise/portable`: the parts of slotwise that run on every runtime profile, the Worker and a
 * Node container alike. Code shared by both (jobs, consumers, routes) imports from here; the
 * `slotwise` entry adds what only a Worker has (the Durable Object class, Workers tracing), and
 * `slotwise/node` runs the container.
 */
export * from "./alerts/index.ts"
export { type CronSchedule, isTimezone } from "./cron.ts"
export type { Duration, DurationUnit } from "./duration.ts"
export type { SlotwiseEnv, StreamNamespace } from "./env.ts"
export { streamsRequired } from "./http/streams-required.ts"
export * from "./jobs/index.ts"
export { describeError, type LogFields, type Logger } from "./log.ts"
export { ONCE_RETENTION_MS, type OnceResult, type OnceStatement } from "./once.ts"
export * as Retry from "./retry.ts"
export * from "./schedules/index.ts"
export { type AttributeValue, type Exception, type SpanLike, type Tracer, useTracer } from "./tracing/index.ts"
export { SLOTWISE_VERSION } from "./version.ts"
