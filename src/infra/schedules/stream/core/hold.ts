import type { ScheduleRow } from "../row.ts"

/**
 * The claim taken from a row by a caller (cancel, resume, an upsert that restarts it): the token
 * goes, so the fence refuses the delivery's answer, but a live lease stays as a hold on eligible_at,
 * so that the same key is never delivered again while that delivery may still run.
 */
export const withdrawn = (row: ScheduleRow, now: number) =>
  ({ claimToken: null, claimUntil: heldUntil(row, now) }) as const

/** The end of a delivery of this row that may still run at `now` (its claim's live lease), or null. */
export const heldUntil = (row: ScheduleRow, now: number): number | null =>
  row.claimUntil !== null && row.claimUntil > now ? row.claimUntil : null
