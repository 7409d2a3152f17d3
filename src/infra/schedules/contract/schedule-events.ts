/** One entry of a stream's event log: what happened to a schedule, and when (`Schedules.stream(...).events`). */
export interface ScheduleEvent {
  /** What happened to the schedule. */
  type:
    | "schedule/set"
    | "schedule/cancelled"
    | "schedule/fired"
    | "schedule/late"
    | "schedule/failed"
    | "schedule/removed"
  /** The schedule it happened to. */
  scheduleId: string
  /** The event's facts: the occurrence, attempt, lateness or reason, as its type records them. */
  data: Record<string, unknown>
  /** The event's place in its stream's log, rising: page with it (`before`). */
  seq: number
  /** When it happened, in epoch milliseconds. */
  at: number
}

/** The kinds of event a stream records. */
export type EventType = ScheduleEvent["type"]

/** An event the core asks the store to append in the same transaction as its row. */
export type EventDraft = Omit<ScheduleEvent, "seq" | "at">

/** Each schedule keeps its newest 12 events, on its own row: an event costs no row of its own. */
export const EVENTS_PER_SCHEDULE = 12
/** A removed schedule's events are kept with the stream's newest 1,000 removals. */
export const REMOVALS_KEPT = 1_000
/** `schedule/late` is recorded only for deliveries later than this. */
export const LATE_THRESHOLD_MS = 1_000
export const MAX_REASON_LENGTH = 1_000

export const cutReason = (reason: string) =>
  reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason
