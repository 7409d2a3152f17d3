/** A pause of a job, as admin shows it: open while `resumedAt` is null. */
export interface Pause {
  job: string
  /** When it was paused (epoch ms): slots from the first one after it are skipped. */
  pausedAt: number
  /** The admin token's label that paused it, or null (a token without a label). */
  pausedBy: string | null
  reason: string
  /** When it was resumed, or null while paused. */
  resumedAt: number | null
  resumedBy: string | null
}

/** Whether a pause holds `slot`: paused at or before it, and not resumed by then. */
export const pauseHolds = (pause: Pick<Pause, "pausedAt" | "resumedAt">, slot: number) =>
  pause.pausedAt <= slot && (pause.resumedAt === null || slot < pause.resumedAt)
