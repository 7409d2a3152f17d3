import type { EventDraft } from "../../contract/schedule-events.ts"
import type { ScheduleRow } from "../row.ts"

/** A pure transition's result: the row to write (or delete) and the events to append with it. */
export interface Change {
  row: ScheduleRow
  events: EventDraft[]
  /** The row goes: `row` is what it was. */
  removed?: true
}

/** A transition that writes nothing, with the reason when the caller asked for something refused. */
export interface NoChange {
  row: ScheduleRow | undefined
  events: []
  refused?: string
}

export type Transition = Change | NoChange

export const none = (row: ScheduleRow | undefined, refused?: string): NoChange =>
  refused === undefined ? { row, events: [] } : { row, events: [], refused }

export const changed = (t: Transition): t is Change => t.events.length > 0

export const clearedAttempt = { retryAt: null, attempts: 0, lastError: null } as const
export const unclaimed = { claimUntil: null, claimToken: null } as const
