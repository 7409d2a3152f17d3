export type EventType =
  | "schedule/set"
  | "schedule/cancelled"
  | "schedule/fired"
  | "schedule/late"
  | "schedule/failed"
  | "schedule/removed"

/** An event the core asks the store to append in the same transaction as its row. */
export interface EventDraft {
  type: EventType
  scheduleId: string
  data: Record<string, unknown>
}

/** One entry of a stream's event log: what happened to a schedule, and when (`Schedules.stream(...).events`). */
export interface ScheduleEvent extends EventDraft {
  /** The event's place in its stream's log, rising: page with it (`before`). */
  seq: number
  /** When it happened, in epoch milliseconds. */
  at: number
}

/** Each stream keeps its newest 10,000 events; older ones are pruned as new ones arrive. */
export const EVENT_LOG_LIMIT = 10_000
/** `schedule/late` is recorded only for deliveries later than this. */
export const LATE_THRESHOLD_MS = 1_000
export const MAX_REASON_LENGTH = 1_000

export const cutReason = (reason: string) =>
  reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason
