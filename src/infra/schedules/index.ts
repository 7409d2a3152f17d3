// The public names of durable schedules, each listed once; the entries pass them on with `export *`. The engine's own
// parts (the consumer registry, streamRpc, the limits and NAME, STATES, the watch summary, the loop's constants) are
// imported by path. The Durable Object class and the delivery loop's types are the Worker entry's (src/infra/index.ts).

export {
  ScheduleNotFoundError,
  ScheduleStateError,
  type StreamClient,
  type StreamClientOptions,
  StreamUnavailableError,
} from "./client/stream-client.ts"
export type { EventsOptions, ListOptions } from "./contract/call-options.ts"
export {
  type Consumer,
  type ConsumerDefinition,
  ConsumerDefinitionError,
  type Delivery,
  type DeliveryContext,
  type Outcome,
} from "./contract/consumer.ts"
export type { ScheduleDefinition } from "./contract/definition.ts"
export { ScheduleDefinitionError, type ScheduleField } from "./contract/definition-error.ts"
export type { DeliveryPoint, HistoryRange, StreamHistory } from "./contract/history.ts"
export type { Reply, ReplyError } from "./contract/reply.ts"
export {
  type BackfillAnswer,
  type BackfillOptions,
  type CancelOptions,
  type NudgeReport,
  STREAM_PROTOCOL,
  type StreamProtocol,
  type StreamRpc,
  type UpsertOptions,
} from "./contract/rpc.ts"
export type { ScheduleEvent } from "./contract/schedule-events.ts"
export type { Json, Timing } from "./contract/spec.ts"
export type { ScheduleState } from "./contract/states.ts"
export type { BackfillReport, ScheduleView, StreamSummary } from "./contract/view.ts"
export * as Schedules from "./namespace.ts"
