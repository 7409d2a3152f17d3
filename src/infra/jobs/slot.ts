import { MINUTE_MS } from "../duration.ts"
import type { Job } from "./definition.ts"

/** The slot a time falls in: its UTC minute. */
export const slotOf = (time: number | Date): Date => {
  const ms = typeof time === "number" ? time : time.getTime()
  return new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS)
}

/** The jobs whose cron names this slot. */
export const dueAt = (jobs: readonly Job[], slot: Date): Job[] =>
  jobs.filter((job) => job.schedule.matches(slot.getTime()))
