import { MISSED_AFTER_MS } from "./missed-after.ts"

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

/**
 * Whether a pause holds `slot` (its history says `paused`, not `missed`): paused before the slot counted as missed
 * (MISSED_AFTER_MS past it), and not resumed by the slot. A pause made in the first seconds of a minute, before
 * that minute's heartbeat read pauses, skips its slot, and so does a late beat or the container's start-up beat
 * for a pause made after its slot began; a slot a run took is shown as its run whatever the pause.
 */
export const pauseHolds = (pause: Pick<Pause, "pausedAt" | "resumedAt">, slot: number) =>
  pause.pausedAt < slot + MISSED_AFTER_MS && (pause.resumedAt === null || slot < pause.resumedAt)
