/**
 * slotwise, the engine a Worker installs: recurring jobs claimed once per slot through one D1
 * upsert (`Jobs`), and durable per-stream schedules on Durable Objects (`Schedules`). The admin
 * app is `slotwise/admin`; the D1 migrations ship in `slotwise/migrations/`.
 */
export { durableDelay, recoveryDelay } from "./backoff.ts"
export { isTimezone } from "./cron.ts"
export type { Duration } from "./duration.ts"
export type { SlotwiseEnv } from "./env.ts"
export {
  DuplicateJobError,
  HEARTBEAT_CRON,
  type Job,
  type JobContext,
  type JobDefinition,
  JobDefinitionError,
  Jobs,
  type RunOutcome,
  type RunRecord,
  type RunResult,
  type RunStatus,
  type SlotEntry,
} from "./jobs/index.ts"
export { describeError, type Logger, logLine } from "./log.ts"
export * as Retry from "./retry.ts"
export {
  type Consumer,
  type ConsumerDefinition,
  ConsumerDefinitionError,
  type Delivery,
  type DeliveryContext,
  type Json,
  NAME,
  NAME_RULE,
  type Outcome,
  type ScheduleDefinition,
  ScheduleDefinitionError,
  type ScheduleEvent,
  ScheduleNotFoundError,
  type ScheduleState,
  ScheduleStateError,
  ScheduleStream,
  Schedules,
  type ScheduleView,
  type StreamClient,
  type StreamClientOptions,
  StreamUnavailableError,
} from "./schedules/index.ts"
