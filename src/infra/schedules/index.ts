export type { StreamNamespace } from "../env.ts"
export {
  ScheduleNotFoundError,
  ScheduleStateError,
  type StreamClient,
  type StreamClientOptions,
  StreamUnavailableError,
  streamRpc,
} from "./client/stream-client.ts"
export type {
  Consumer,
  ConsumerDefinition,
  ConsumerRegistry,
  Delivery,
  DeliveryContext,
  Outcome,
} from "./contract/consumer.ts"
export { ConsumerDefinitionError, consumerRegistry } from "./contract/consumer.ts"
export {
  DEFAULT_RETENTION_MS,
  type Json,
  LIST_DEFAULT,
  LIST_MAX,
  MAX_PAYLOAD_BYTES,
  MAX_PAYLOAD_DEPTH,
  MAX_RETENTION_MS,
  NAME,
  NAME_RULE,
  type ScheduleDefinition,
  ScheduleDefinitionError,
  type ScheduleState,
  STATES,
  validateDefinition,
} from "./contract/definition.ts"
export type { Reply, ReplyError } from "./contract/reply.ts"
export type { NudgeReport, StreamRpc, UpsertOptions } from "./contract/rpc.ts"
export type { ScheduleEvent } from "./contract/schedule-events.ts"
export { EVENTS_PER_SCHEDULE, LATE_THRESHOLD_MS, REMOVALS_KEPT } from "./contract/schedule-events.ts"
export type { ScheduleView, StreamSummary } from "./contract/view.ts"
export type { WatchSummary } from "./directory/watch-summary.ts"
export * as Schedules from "./namespace.ts"
export type {
  Claim,
  DeliveryResult,
  SettledAnswer,
  SettlingAnswer,
  StreamEventMap,
  StreamListeners,
  TickReport,
} from "./stream/event-map.ts"
// Types only: the class extends cloudflare:workers' DurableObject, which only the Worker entry loads.
export type { ScheduleStream, ScheduleStreamOptions } from "./stream/schedule-stream.ts"
export { SUMMARY_ROWS_MAX } from "./stream/summary.ts"
export { BATCH_SIZE } from "./stream/tick.ts"
