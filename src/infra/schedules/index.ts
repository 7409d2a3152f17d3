export { ScheduleNotFoundError, ScheduleStateError, type StreamClient, StreamUnavailableError } from "./client.ts"
export type { Consumer, ConsumerRegistry, Delivery, DeliveryContext, Outcome } from "./consumer.ts"
export { ConsumerDefinitionError } from "./consumer.ts"
export {
  type Json,
  type ScheduleDefinition,
  ScheduleDefinitionError,
  type ScheduleState,
} from "./contract.ts"
export type { ScheduleEvent } from "./events.ts"
export { EVENT_LOG_LIMIT, LATE_THRESHOLD_MS } from "./events.ts"
export { Schedules } from "./schedules.ts"
export { ScheduleStream } from "./stream.ts"
export { BATCH_SIZE, type TickReport } from "./tick.ts"
export type { ScheduleView } from "./view.ts"
