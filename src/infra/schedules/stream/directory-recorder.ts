import { MINUTE_MS } from "../../duration.ts"
import { describeError, logLine } from "../../log.ts"
import { forgetStream, recordNextEligible } from "../directory/stream-directory.ts"
import type { ScheduleStore } from "./store.ts"

/** A later alarm is recorded once it is this much past the recorded one; the watchdog waits longer. */
export const RECORD_SLACK_MS = MINUTE_MS
/** After a failed write the entry is retried this much later, by the stream's own alarm if nothing sooner arms. */
export const RECORD_RETRY_MS = 30_000
/** The stream's meta key holding when a failed directory write is tried again; absent when none failed. */
export const RETRY_META_KEY = "directory_retry_at"

/**
 * True when the directory must learn `next`: nothing recorded yet, an earlier time, a change
 * to or from null (the stream is empty), or a time later by more than RECORD_SLACK_MS.
 */
export function worthRecording(recorded: number | null | undefined, next: number | null): boolean {
  if (recorded === undefined) return true
  if (next === null || recorded === null) return next !== recorded
  return next < recorded || next > recorded + RECORD_SLACK_MS
}

/**
 * Keeps a stream's entry in the D1 directory: its alarm time for the watchdog, written only when
 * it moves meaningfully (a stream of 1-second schedules writes about once a minute), and no entry
 * at all once the stream holds nothing (`next` null). The value last written is kept in memory, so
 * deciding reads no D1 and a write costs the stream no row of its own (a new object life writes its
 * entry once). Never throws: a failed write is logged and leaves a durable retry time, which the
 * stream's alarm honours (see retryAt), so the entry converges once D1 answers.
 */
export class AlarmRecorder {
  private stream: string | undefined
  /** The value last written to the directory in this object's life (undefined: none yet). */
  private recorded: number | null | undefined
  private retry: number | null = null
  private loaded = false
  private latest: number | null = null
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly store: ScheduleStore,
    private readonly d1: () => D1Database,
  ) {}

  /** When a failed write is due to be tried again (null: none failed); the alarm must not be later. */
  retryAt(): number | null {
    this.load()
    return this.retry
  }

  /** Records the alarm `next` (null: the stream is empty); `rewrite` writes it even when unchanged. */
  record(next: number | null, now: number, rewrite = false): Promise<void> {
    this.latest = next
    // One write at a time, each of the latest alarm, so an older value never lands last.
    this.queue = this.queue.then(() => this.flush(now, rewrite))
    return this.queue
  }

  private load(): void {
    if (this.loaded) return
    const retry = this.store.meta(RETRY_META_KEY)
    this.retry = retry === undefined ? null : Number(retry)
    this.loaded = true
  }

  private async flush(now: number, rewrite: boolean): Promise<void> {
    const next = this.latest
    try {
      this.stream ??= this.store.meta("stream")
      if (this.stream === undefined) return
      this.load()
      const retryDue = this.retry !== null && now >= this.retry
      if (!rewrite && !retryDue && (this.retry !== null || !worthRecording(this.recorded, next))) return
      if (next === null) await forgetStream(this.d1(), this.stream)
      else await recordNextEligible(this.d1(), this.stream, next, now)
      if (this.retry !== null) this.store.deleteMeta(RETRY_META_KEY)
      this.recorded = next
      this.retry = null
    } catch (error) {
      this.failed(now, next, error)
    }
  }

  private failed(now: number, next: number | null, error: unknown): void {
    this.retry = now + RECORD_RETRY_MS
    logLine("warn", "schedule stream alarm not recorded in the directory", {
      stream: this.stream,
      next,
      retryAt: this.retry,
      error: describeError(error),
    })
    try {
      this.store.setMeta(RETRY_META_KEY, String(this.retry))
    } catch {
      // Storage failing too: the in-memory retry time still moves this object's alarm.
    }
  }
}
