import { MINUTE_MS } from "../duration.ts"
import { describeError, logLine } from "../log.ts"
import { recordNextEligible } from "./directory.ts"
import type { ScheduleStore } from "./store.ts"

/** A later alarm is recorded once it is this much past the recorded one; the watchdog waits longer. */
export const RECORD_SLACK_MS = MINUTE_MS
/** After a failed write, arms skip the directory this long, so a D1 outage does not slow every tick by its bound. */
export const RECORD_RETRY_MS = 30_000
/** The stream's meta key holding the value last written to the directory (JSON: a number or null). */
export const RECORDED_META_KEY = "directory_next_eligible_at"

/**
 * True when the directory must learn `next`: nothing recorded yet, an earlier time, a change
 * to or from null (nothing due), or a time later by more than RECORD_SLACK_MS.
 */
export function worthRecording(recorded: number | null | undefined, next: number | null): boolean {
  if (recorded === undefined) return true
  if (next === null || recorded === null) return next !== recorded
  return next < recorded || next > recorded + RECORD_SLACK_MS
}

/**
 * Keeps a stream's alarm time in the D1 directory for the watchdog, writing only when it moves
 * meaningfully: a stream of 1-second schedules writes about once a minute. The value last
 * written lives in the stream's meta, so deciding reads no D1. Never throws: a failed write is
 * logged and retried by an arm at least RECORD_RETRY_MS later, since the meta still holds the old value.
 */
export class AlarmRecorder {
  private stream: string | undefined
  private recorded: number | null | undefined
  private loaded = false
  private latest: number | null = null
  private retryAfter = 0
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly store: ScheduleStore,
    private readonly d1: () => D1Database,
  ) {}

  /** Records the alarm `next` (null: nothing due); `rewrite` writes it even when unchanged. */
  record(next: number | null, now: number, rewrite = false): Promise<void> {
    this.latest = next
    // One write at a time, each of the latest alarm, so an older value never lands last.
    this.queue = this.queue.then(() => this.flush(now, rewrite))
    return this.queue
  }

  private async flush(now: number, rewrite: boolean): Promise<void> {
    const next = this.latest
    try {
      this.stream ??= this.store.meta("stream")
      if (this.stream === undefined) return
      if (!this.loaded) {
        const stored = this.store.meta(RECORDED_META_KEY)
        this.recorded = stored === undefined ? undefined : (JSON.parse(stored) as number | null)
        this.loaded = true
      }
      if (!rewrite && (!worthRecording(this.recorded, next) || now < this.retryAfter)) return
      await recordNextEligible(this.d1(), this.stream, next, now)
      this.store.setMeta(RECORDED_META_KEY, JSON.stringify(next))
      this.recorded = next
    } catch (error) {
      this.retryAfter = now + RECORD_RETRY_MS
      logLine("warn", "schedule stream alarm not recorded in the directory", {
        stream: this.stream,
        next,
        error: describeError(error),
      })
    }
  }
}
