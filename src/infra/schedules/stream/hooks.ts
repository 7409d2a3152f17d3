import type { Claim, Transition } from "./core.ts"
import type { ScheduleRow } from "./row.ts"
import type { Answer } from "./settlement.ts"

/** What a stream records in the D1 directory (recorder.ts); a test may keep a stream to its own storage. */
export interface DirectoryRecorder {
  record(next: number | null, now: number, rewrite?: boolean): Promise<void>
  /** When a failed directory write is due again (null: none failed): the alarm is never later. */
  retryAt(): number | null
}

/**
 * How tests and the simulator watch a stream's delivery loop, passed where the stream is built
 * (Schedules.durableObject's `hooks`). Production passes none: every hook is optional and only observes,
 * except `fenceRow`, a sabotage that proves the simulator's oracle notices a broken fence.
 */
export interface StreamHooks {
  /** How long a tick waits on its deliveries before it yields (default YIELD_AFTER_MS). */
  yieldAfterMs?: number
  /** Replaces the D1 directory recorder. */
  recorder?: DirectoryRecorder
  /** The stream's storage was migrated (undefined) or refused (the error). */
  storage?(refusal: Error | undefined): void
  /** A tick is about to select and claim. */
  claiming?(): void
  claimed?(row: ScheduleRow, claim: Claim): void
  /** Wraps one settlement of answers that came in together: `settle()` writes them (or throws a storage error). */
  settling?(settle: () => Transition[], answers: readonly Answer[]): Transition[]
  /** The re-arm (or recovery) a yielded tick leaves behind, once all its deliveries settled. */
  later?(done: Promise<void>): void
  /** An arm starts (it reads the smallest eligible_at first); the callback runs once it set the alarm. */
  arming?(): () => void
  /** A recovery alarm is about to be set, `delayMs` after `now` (the previous delay was `previousMs`). */
  recovering?(now: number, previousMs: number, delayMs: number): () => void
  /** Sabotage: the row the settlement fence reads, for `claim`. */
  fenceRow?(row: ScheduleRow | undefined, claim: Claim): ScheduleRow | undefined
}
