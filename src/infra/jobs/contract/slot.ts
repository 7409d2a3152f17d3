import { MINUTE_MS } from "../../duration.ts"
import type { Job } from "./definition.ts"

/** The slot a time falls in: its UTC minute. */
export const slotOf = (time: number | Date): Date => {
  const ms = typeof time === "number" ? time : time.getTime()
  return new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS)
}

/** The jobs whose cron names this slot; croner is asked once per cron text, however many jobs share it. */
export function dueAt(jobs: readonly Job[], slot: Date): Job[] {
  const time = slot.getTime()
  const matches = new Map<string, boolean>()
  return jobs.filter((job) => {
    let match = matches.get(job.cron)
    if (match === undefined) {
      match = job.schedule.matches(time)
      matches.set(job.cron, match)
    }
    return match
  })
}
