import type { ScheduleRow } from "../row.ts"
import { heldUntil, withdrawn } from "./hold.ts"
import { clearedAttempt, none, type Transition, unclaimed } from "./transition.ts"

/** Stops a scheduled or failed schedule, keeping `reason` (checked by validateReason) on the row and in its event. */
export function cancel(row: ScheduleRow | undefined, now: number, reason: string | null = null): Transition {
  if (!row) return none(row)
  if (row.state !== "scheduled" && row.state !== "failed") return none(row, `schedule is ${row.state}`)
  const cancelled: ScheduleRow = {
    ...row,
    state: "cancelled",
    retryAt: null,
    ...withdrawn(row, now),
    updatedAt: now,
    finishedAt: now,
    cancelReason: reason,
  }
  const data = { occurrence: row.occurrence, from: row.state, ...(reason === null ? {} : { reason }) }
  return { row: cancelled, events: [{ type: "schedule/cancelled", scheduleId: row.id, data }] }
}

/** failed or cancelled -> scheduled at the same occurrence, attempts reset. */
export function resume(row: ScheduleRow | undefined, now: number): Transition {
  if (!row) return none(row)
  if (row.state !== "failed" && row.state !== "cancelled") return none(row, `schedule is ${row.state}`)
  const resumed: ScheduleRow = {
    ...row,
    state: "scheduled",
    ...clearedAttempt,
    ...withdrawn(row, now),
    updatedAt: now,
    finishedAt: null,
    cancelReason: null,
  }
  return {
    row: resumed,
    events: [
      {
        type: "schedule/set",
        scheduleId: row.id,
        data: { cause: "resumed", from: row.state, occurrence: row.occurrence, nextAt: row.nextAt },
      },
    ],
  }
}

/** Makes the current occurrence due now; its place on the cadence (cadenceAt) stays. */
export function trigger(row: ScheduleRow | undefined, now: number): Transition {
  if (!row) return none(row)
  if (row.state !== "scheduled") return none(row, `schedule is ${row.state}`)
  // A live lease with no token is a withdrawn claim's hold: its delivery may still be running too.
  if (heldUntil(row, now) !== null) return none(row, "the current occurrence is being delivered")
  const triggered: ScheduleRow = {
    ...row,
    nextAt: Math.min(row.nextAt, now),
    retryAt: null,
    ...unclaimed,
    updatedAt: now,
  }
  return {
    row: triggered,
    events: [
      {
        type: "schedule/set",
        scheduleId: row.id,
        data: { cause: "triggered", occurrence: row.occurrence, nextAt: triggered.nextAt },
      },
    ],
  }
}

/** Deletes a finished (completed, failed) or cancelled schedule now; a scheduled one is cancelled first, a held one waits. */
export function remove(row: ScheduleRow | undefined, now: number): Transition {
  if (!row) return none(row)
  if (row.state === "scheduled") return none(row, "schedule is scheduled: cancel it first")
  // Gone, the id would start over at occurrence 1: the same key, deliverable while this one runs.
  const held = heldUntil(row, now)
  if (held !== null)
    return none(row, `its last delivery may still be running until ${new Date(held).toISOString()}: remove it then`)
  return {
    row,
    removed: true,
    events: [{ type: "schedule/removed", scheduleId: row.id, data: { occurrence: row.occurrence, from: row.state } }],
  }
}
