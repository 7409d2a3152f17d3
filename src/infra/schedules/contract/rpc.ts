import type { EventsOptions, ListOptions } from "./call-options.ts"
import type { HistoryRange, StreamHistory } from "./history.ts"
import type { Reply } from "./reply.ts"
import type { ScheduleEvent } from "./schedule-events.ts"
import type { BackfillReport, ScheduleView, StreamSummary } from "./view.ts"

/**
 * The version of the stream's RPC (StreamRpc): what its methods are and what they take and answer. It goes up
 * when a method is added or a call's shape changes; 0.1.0's stream had no marker and is protocol 1. A method is
 * only added within a release, and dropped no sooner than a release after every client has stopped calling it,
 * so a gradual deployment's two versions can call each other's stream (docs/upgrading.md).
 */
export const STREAM_PROTOCOL = 2

/** What a stream answers to `protocol()`: its RPC's version and the slotwise release it runs. */
export interface StreamProtocol {
  /** STREAM_PROTOCOL of the code the stream runs. */
  protocol: number
  /** The slotwise release the stream runs ("0.2.0"). */
  release: string
}

/** An upsert's options: the stream's retention window as its caller declares it. */
export interface UpsertOptions {
  /** Milliseconds finished schedules are kept (0: none); unset leaves the stream's window as it is. */
  retentionMs?: number
  /** A day the definition's cron names, as the caller's checkDefinition found it: verified, not searched again. */
  firesOn?: number
}

/** A cancel's options: why, for the people who look at the schedule later. */
export interface CancelOptions {
  /** Stored on the schedule while it stays cancelled, shown in its view and recorded in its event (at most 1,000 characters). */
  reason?: string
}

/** A backfill's range (each end a Date, epoch milliseconds or ISO 8601 with an offset) and whether it only previews. */
export interface BackfillOptions {
  /** The range's first moment: occurrences at or after it. */
  from: Date | number | string
  /** The range's last moment, not in the future: occurrences at or before it. */
  to: Date | number | string
  /** Only count the occurrences the range names; write nothing. */
  dryRun?: boolean
}

/** A backfill's answer: the schedule backfilled, and what was created (or, with dryRun, would be). */
export interface BackfillAnswer {
  /** The recurring schedule backfilled, as it is now. */
  schedule: ScheduleView
  /** The occurrences created, or counted. */
  backfill: BackfillReport
}

/** What a nudge did: ticked (something was overdue) or only re-armed. */
export interface NudgeReport {
  /** True when something was overdue and the stream ticked; false when it only re-armed its alarm. */
  ticked: boolean
  /** The time the stream's alarm was left at, or null when nothing is due. */
  alarm: number | null
  /** Deliveries the tick settled as delivered (0 when it did not tick). */
  delivered: number
  /** Why the tick failed, or null: the stream then armed its recovery alarm. */
  error: string | null
}

/**
 * A stream's RPC: the methods of its Durable Object (ScheduleStream) that `Schedules.stream`, admin and the watchdog
 * call. Each answers a Reply, since RPC drops error classes; the stream's name comes first, so an object refuses a
 * call meant for another stream. Callers hold this interface, never the class.
 *
 * @example
 * ```ts
 * const rpc = env.SCHEDULES.get(env.SCHEDULES.idFromName("tenant-42")) as unknown as StreamRpc
 * const reply = await rpc.get("tenant-42", "trial-ending")
 * if (reply.ok) console.log(reply.value.nextAt)
 * ```
 */
export interface StreamRpc {
  /** Creates or replaces a schedule from an unchecked definition; refuses it as `invalid`, naming the field. */
  upsert(stream: string, definition: unknown, options?: UpsertOptions): Promise<Reply<ScheduleView>>
  /** The schedule of that id, or `not_found`. */
  get(stream: string, id: string): Promise<Reply<ScheduleView>>
  /** A page of the stream's schedules by id; `cursor` is null on the last page. */
  list(stream: string, options?: ListOptions): Promise<Reply<{ schedules: ScheduleView[]; cursor: string | null }>>
  /** Stops a scheduled or failed schedule, keeping an optional reason; `conflict` when its state refuses it. */
  cancel(stream: string, id: string, options?: CancelOptions): Promise<Reply<ScheduleView>>
  /** Delivers once more the occurrences a recurring schedule names in a past range; `conflict` for a one-shot. */
  backfill(stream: string, id: string, options: BackfillOptions): Promise<Reply<BackfillAnswer>>
  /** Starts a failed or cancelled schedule again at its current occurrence; `conflict` when its state refuses it. */
  resume(stream: string, id: string): Promise<Reply<ScheduleView>>
  /** Makes the current occurrence due now, its place on the cadence kept; `conflict` unless scheduled. */
  trigger(stream: string, id: string): Promise<Reply<ScheduleView>>
  /** Deletes a finished or cancelled schedule now; `conflict` for a scheduled one (cancel it first). */
  remove(stream: string, id: string): Promise<Reply<ScheduleView>>
  /** The stream's event log, newest first, optionally of one schedule. */
  events(stream: string, options?: EventsOptions): Promise<Reply<ScheduleEvent[]>>
  /** How many schedules in each state, how many retrying, and the overdue one due longest ago. */
  summary(stream: string): Promise<Reply<StreamSummary>>
  /** Deliveries, retries, failures and lateness over the last day per minute, or 30 days per hour. */
  history(stream: string, range?: HistoryRange): Promise<Reply<StreamHistory>>
  /** The watchdog's call: ticks when something is overdue, otherwise re-arms and rewrites the directory entry. */
  nudge(stream: string): Promise<Reply<NudgeReport>>
  /** The stream's protocol marker: which RPC it speaks and which release it runs (absent before protocol 2). */
  protocol(): Promise<StreamProtocol>
}
