/** A schedule's states; a module of its own (no imports), so the dashboard's browser bundle takes the list from here. */
export type ScheduleState = "scheduled" | "completed" | "cancelled" | "failed"
export const STATES: readonly ScheduleState[] = ["scheduled", "completed", "cancelled", "failed"]
