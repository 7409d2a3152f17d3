import { DEFAULT_RETENTION_MS } from "../contract/limits.ts"
import type { ScheduleStore } from "./store.ts"

/** At most this many finished rows are deleted by one tick, so a tick's cost stays flat. */
export const SWEEP_BATCH = 64
export const RETENTION_META_KEY = "retention_ms"

/**
 * A stream's retention window for finished schedules, and the sweep that enforces it: bounded
 * batches on ticks that run anyway, oldest first through the retention journal (journal.ts), with
 * the stream's one alarm never later than the next row to fall out of the window.
 */
export class Retention {
  private windowMs: number | undefined

  constructor(private readonly store: ScheduleStore) {}

  /** The window in milliseconds: the stream's own, or DEFAULT_RETENTION_MS. */
  window(): number {
    if (this.windowMs === undefined) {
      const stored = this.store.meta(RETENTION_META_KEY)
      this.windowMs = stored === undefined ? DEFAULT_RETENTION_MS : Number(stored)
    }
    return this.windowMs
  }

  /** Keeps `ms` as the stream's window, writing only when it changes; call inside the upsert's transaction. */
  set(ms: number): void {
    if (ms === this.window()) return
    this.store.setMeta(RETENTION_META_KEY, String(ms))
    this.windowMs = ms
  }

  /** After a rolled-back transaction: the window is read again. */
  forget(): void {
    this.windowMs = undefined
  }

  /** When the oldest finished row falls out of the window (null: no finished row). */
  nextSweepAt(): number | null {
    const first = this.store.firstFinishedAt()
    return first === null ? null : first + this.window()
  }

  /** Deletes at most SWEEP_BATCH rows out of the window at `now`; answers how many. Reads nothing when none is due. */
  sweep(now: number): number {
    const due = this.nextSweepAt()
    if (due === null || due > now) return 0
    return this.store.transaction(() => this.store.deleteFinished(now - this.window(), SWEEP_BATCH))
  }
}
