import { describeError, logLine } from "../../log.ts"
import type { Claim } from "./core/claim.ts"
import type { DeliveryResult } from "./core/settle.ts"

/** One answer of a settlement: the claim it settles, the consumer's result, and the time it settles at. */
export interface SettlingAnswer {
  /** The delivery claim the answer settles. */
  claim: Claim
  /** What the consumer answered, or how its delivery failed. */
  result: DeliveryResult
  /** When the settlement runs, in epoch milliseconds. */
  now: number
}

/** A settled answer; `stale` when the fence refused it (its lease ended or the row moved on) and it wrote nothing. */
export interface SettledAnswer extends SettlingAnswer {
  /** True when the fence refused the answer: it wrote nothing. */
  stale: boolean
}

/**
 * What a stream's delivery loop reports as it runs, each event with its payload: listen through
 * `Schedules.durableObject({ on })`, for metrics or logs. Listeners only observe: they run
 * synchronously where the event happens, and one that throws (or rejects) is logged once per
 * event name and never reaches the loop.
 */
export interface StreamEventMap {
  /** The stream's storage was brought up to date (at start, or on a call after a refusal). */
  "storage:migrated": Record<string, never>
  /** The stream refused its storage: calls answer `unavailable` until a migration succeeds (a newer schema: newer code). */
  "storage:refused": { error: Error }
  /** A tick is about to select and claim the rows due at `now`. */
  "tick:claiming": { stream: string; now: number }
  /** A due row was claimed for one attempt; its consumer is called next. */
  "delivery:claimed": { stream: string; consumer: string; claim: Claim }
  /** Answers that came in together are about to be settled, in one transaction. */
  "settlement:started": { stream: string; answers: readonly SettlingAnswer[] }
  /** They were settled. */
  "settlement:committed": { stream: string; settled: readonly SettledAnswer[] }
  /** Their transaction failed and wrote nothing: the leases run out and the alarm recovers. */
  "settlement:failed": { stream: string; answers: readonly SettlingAnswer[]; error: unknown }
  /** A tick returned with `inFlight` deliveries still out; they settle as they answer. */
  "tick:yielded": { stream: string; inFlight: number }
  /** The deliveries a yielded tick left out have all settled; `rearmed` resolves once the alarm is re-armed after them. */
  "tick:drained": { stream: string; rearmed: Promise<void> }
  /** A tick ended, with the report `tick()` answers. */
  "tick:finished": { stream: string; report: TickReport }
  /** An arm starts (`arm` numbers it); it reads the smallest eligible_at next. Arms run one after another. */
  "alarm:arming": { arm: number; now: number }
  /** Arm `arm` set the alarm; `next` is the time the directory records (the smallest eligible_at or the next sweep). */
  "alarm:armed": { arm: number; now: number; next: number | null }
  /** A storage error: one recovery alarm is about to be set `delayMs` after `now` (the previous delay was `previousMs`). */
  "recovery:arming": { now: number; previousMs: number; delayMs: number; error: unknown }
  /** The recovery alarm's write was issued, for `at`. */
  "recovery:armed": { at: number }
}

/** One listener per event, each optional. */
export type StreamListeners = { [E in keyof StreamEventMap]?: (event: StreamEventMap[E]) => void }

/** Calls a stream's listeners; a listener's throw or rejection is logged once per event and never thrown on. */
export class StreamEmitter {
  private readonly logged = new Set<string>()

  constructor(private readonly listeners: StreamListeners = {}) {}

  /** True when `name` has a listener: an event whose payload costs per delivery is built only then. */
  listens(name: keyof StreamEventMap): boolean {
    return this.listeners[name] !== undefined
  }

  emit<E extends keyof StreamEventMap>(name: E, event: StreamEventMap[E]): void {
    const listener = this.listeners[name] as ((event: StreamEventMap[E]) => unknown) | undefined
    if (listener === undefined) return
    try {
      const returned = listener(event)
      if (returned instanceof Promise) returned.catch((error: unknown) => this.failed(name, error))
    } catch (error) {
      this.failed(name, error)
    }
  }

  private failed(name: string, error: unknown): void {
    if (this.logged.has(name)) return
    this.logged.add(name)
    logLine("error", "schedule stream listener threw", { event: name, error: describeError(error) })
  }
}

/** What one tick did: its counts, the alarm it left, and the rows it read and wrote. */
export interface TickReport {
  /** When the tick started, in epoch milliseconds. */
  now: number
  /** Rows claimed for one attempt each. */
  claimed: number
  /** Deliveries settled as delivered. */
  delivered: number
  /** Failed attempts that will be retried, and occurrences skipped by maxAttempts. */
  retried: number
  /** Deliveries whose schedule is now failed (its attempts spent, or its consumer gone). */
  failed: number
  /** Results the settlement fence refused: they wrote nothing. */
  stale: number
  /** Deliveries still running when the tick yielded; they settle on their own. */
  inFlight: number
  /** Finished rows deleted because they fell out of the stream's retention window. */
  swept: number
  /** The time the tick left the stream's alarm at, or null when nothing is due. */
  alarm: number | null
  /** Why the tick failed, when it did: the stream then armed its recovery alarm. */
  error?: string
  /** Rows the tick's SQL read, as the Durable Object bills them. */
  rowsRead: number
  /** Rows the tick's SQL wrote, as the Durable Object bills them. */
  rowsWritten: number
}

/** The reports of one alarm's batches as one: counts and rows summed; the alarm, in-flight and error of the last. */
export function summed(first: TickReport, next: TickReport): TickReport {
  const { error, ...rest } = next
  return {
    ...rest,
    now: first.now,
    claimed: first.claimed + next.claimed,
    delivered: first.delivered + next.delivered,
    retried: first.retried + next.retried,
    failed: first.failed + next.failed,
    stale: first.stale + next.stale,
    swept: first.swept + next.swept,
    rowsRead: first.rowsRead + next.rowsRead,
    rowsWritten: first.rowsWritten + next.rowsWritten,
    ...(error === undefined ? {} : { error }),
  }
}

/**
 * The one `schedule.tick` line of an alarm (its `batches` summed) or of a tick() call, when it
 * claimed or swept something: a line per invocation, not per batch of 32, keeps a backlog's
 * logs within what Workers Logs keeps of one invocation.
 */
export function logTicks(stream: string | undefined, report: TickReport, batches: number): void {
  if (report.claimed > 0 || report.swept > 0) logLine("info", "schedule.tick", { stream, ...report, batches })
}
