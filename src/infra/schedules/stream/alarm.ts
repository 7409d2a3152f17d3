import { recoveryDelay } from "../../backoff.ts"
import { describeError, logLine } from "../../log.ts"
import type { StreamEmitter } from "./event-map.ts"
import type { Retention } from "./retention.ts"
import type { DirectoryRecorder } from "./seams.ts"
import type { ScheduleStore } from "./store.ts"

/** What the alarm needs to know of the dispatches in flight (tick.ts). */
export interface DispatchCapacity {
  /** True while every dispatch slot is taken: due rows then wait for one. */
  full(): boolean
  /** How long a full stream waits before it looks again (a late answer re-arms sooner). */
  readonly waitMs: number
}

/**
 * A stream's one alarm (ARCHITECTURE.md, "Deliveries": re-arm): always the smallest eligible_at, or the next retention sweep,
 * or a directory write owed after a failure, whichever comes first; and, after a storage error,
 * one recovery alarm 1 s doubling to 60 s. Arms run one after another, each reading storage at
 * its own turn, and touch storage only when the time changes.
 */
export class StreamAlarm {
  private recoveryMs = 0
  /** Arms started so far: each arm's number pairs its two events. */
  private arms = 0
  /** Recovery alarms armed so far. */
  private recoveries = 0
  private queue: Promise<unknown> = Promise.resolve()
  /** The time the last arm recorded: what a tick that does not re-arm leaves. */
  armed: number | null = null

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly store: ScheduleStore,
    private readonly recorder: DirectoryRecorder,
    private readonly retention: Retention,
    private readonly capacity: DispatchCapacity,
    private readonly clock: () => number,
    private readonly events: StreamEmitter,
  ) {}

  /**
   * Sets the alarm and records it in the D1 directory when it moved meaningfully (or always, with
   * `rewrite`). Answers the time recorded: the smallest eligible_at or the next sweep.
   */
  async arm(now = this.clock(), rewrite = false, uncapped = false): Promise<number | null> {
    const arm = ++this.arms
    const recoveries = this.recoveries
    this.events.emit("alarm:arming", { arm, now })
    const next = await this.serially(() => this.set(now, uncapped))
    this.events.emit("alarm:armed", { arm, now, next })
    const retry = this.recorder.retryAt()
    await this.recorder.record(next, now, rewrite)
    // A directory write that just failed is retried by this alarm (one that went through, no longer); a recovery
    // alarm armed since this arm began stands instead (its tick re-arms).
    if (this.recorder.retryAt() !== retry && recoveries === this.recoveries)
      await this.serially(() => this.set(now, uncapped))
    // An arm not waited for (an alarm's first, schedule-stream.ts) may end after a newer one: the newest stands.
    if (arm === this.arms) this.armed = next
    return next
  }

  /**
   * arm(), or the recovery alarm when arming fails: for work that already committed. Never throws. `uncapped`:
   * not held back while every dispatch slot is taken (an alarm's first arm, not waited for: schedule-stream.ts).
   */
  rearm(now = this.clock(), uncapped = false): Promise<number | null> {
    return this.arm(now, false, uncapped).catch((error) => this.recover(error, now))
  }

  /** A tick went through: the next storage error starts the recovery delay at 1 s again. */
  healthy(): void {
    this.recoveryMs = 0
  }

  /** onError: one log line, and one recovery alarm whose delay doubles from 1 s to 60 s. Never throws. */
  async recover(error: unknown, now: number): Promise<number | null> {
    const previousMs = this.recoveryMs
    const delayMs = recoveryDelay(previousMs)
    this.recoveryMs = delayMs
    this.recoveries++
    const retryAt = now + delayMs
    logLine("error", "schedule stream onError", { error: describeError(error), recoveryInMs: delayMs })
    try {
      // Set after the arms already started (one not waited for may still be out), so that it stands.
      await this.serially(async () => {
        // The two events bracket the call itself, not its await: another arm may run meanwhile.
        this.events.emit("recovery:arming", { now, previousMs, delayMs, error })
        const setting = this.storage.setAlarm(retryAt)
        this.events.emit("recovery:armed", { at: retryAt })
        await setting
      })
      return retryAt
    } catch (alarmError) {
      logLine("error", "schedule stream could not arm its recovery alarm", { error: describeError(alarmError) })
      return null
    }
  }

  private serially<T>(arm: () => Promise<T>): Promise<T> {
    const armed = this.queue.then(arm)
    this.queue = armed.catch(() => undefined)
    return armed
  }

  /**
   * Sets the one alarm; answers the time the directory records (without a directory retry). While every
   * dispatch slot is taken, due rows wait for one (waitMs), unless `uncapped`.
   */
  private async set(now: number, uncapped: boolean): Promise<number | null> {
    const current = await this.storage.getAlarm()
    // Read after the await, so a settlement that landed meanwhile is seen.
    let due = this.store.nextEligibleAt() ?? null
    if (!uncapped && due !== null && this.capacity.full()) due = Math.max(due, now + this.capacity.waitMs)
    const next = earliest(due, this.retention.nextSweepAt())
    const alarm = earliest(next, this.recorder.retryAt())
    if (alarm === null && current !== null) await this.storage.deleteAlarm()
    else if (alarm !== null && current !== alarm) await this.storage.setAlarm(alarm)
    return next
  }
}

const earliest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b)
