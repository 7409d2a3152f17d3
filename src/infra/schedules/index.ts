export {
  ScheduleNotFoundError,
  ScheduleStateError,
  type StreamClient,
  type StreamRpc,
  StreamUnavailableError,
  streamRpc,
} from "./client.ts"
export type { Consumer, ConsumerRegistry, Delivery, DeliveryContext, Outcome } from "./consumer.ts"
export { ConsumerDefinitionError } from "./consumer.ts"
export {
  type Json,
  NAME,
  NAME_RULE,
  type ScheduleDefinition,
  ScheduleDefinitionError,
  type ScheduleState,
  STATES,
} from "./contract.ts"
export type { ScheduleEvent } from "./events.ts"
export { EVENT_LOG_LIMIT, LATE_THRESHOLD_MS } from "./events.ts"
export type { Reply, ReplyError } from "./reply.ts"
export { Schedules } from "./schedules.ts"
export { LIST_DEFAULT, LIST_MAX, ScheduleStream } from "./stream.ts"
export { BATCH_SIZE, type TickReport } from "./tick.ts"
export type { ScheduleView } from "./view.ts"
