// Order matters: schedules.ts must evaluate before stream.ts, which loads src/consumers.ts,
// whose slices use `Schedules` at module load.

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
export { BATCH_SIZE, ScheduleStream, type TickReport } from "./stream.ts"
export type { ScheduleView } from "./view.ts"
