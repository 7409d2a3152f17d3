import type { Duration } from "../../duration.ts"
import type { StreamNamespace } from "../../env.ts"
import { validateReason, validateRetention } from "../contract/call-options.ts"
import type { ScheduleDefinition } from "../contract/definition.ts"
import { assertName, ScheduleDefinitionError } from "../contract/definition-error.ts"
import { encodePayload } from "../contract/payload.ts"
import type { Reply, ReplyError } from "../contract/reply.ts"
import type { BackfillAnswer, BackfillOptions, CancelOptions } from "../contract/rpc.ts"
import type { ScheduleEvent } from "../contract/schedule-events.ts"
import type { Json } from "../contract/spec.ts"
import type { ScheduleState } from "../contract/states.ts"
import type { ScheduleView } from "../contract/view.ts"
import { streamRpc } from "./stream-rpc.ts"

/** The stream holds no schedule of that id (get, cancel, resume, trigger, remove). */
export class ScheduleNotFoundError extends Error {
  /** Always "ScheduleNotFoundError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "ScheduleNotFoundError"
}
/** The schedule's state refuses the call: resuming one that is not failed or cancelled, triggering one that is not scheduled. */
export class ScheduleStateError extends Error {
  /** Always "ScheduleStateError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "ScheduleStateError"
}
/** The stream's Durable Object could not answer (its storage failed, or it was reset); nothing was changed by this call. */
export class StreamUnavailableError extends Error {
  /** Always "StreamUnavailableError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "StreamUnavailableError"
}

/** One stream's schedules, through its Durable Object; every call throws a typed error when refused. */
export interface StreamClient {
  /** The stream's name, as given to `Schedules.stream`. */
  readonly name: string
  /**
   * Creates or replaces a schedule; the same definition (or the same timing written differently)
   * changes nothing. Throws ScheduleDefinitionError naming the field, writing nothing.
   * @example
   * ```ts
   * await stream.upsert({ id: "trial-ending", consumer: "billing.trial-reminder", cron: "0 9 * * *",
   *   timezone: "Europe/Berlin", payload: { userId: 7 } })
   * await stream.upsert({ id: "ping", consumer: "ops.ping", after: "10 minutes" })
   * ```
   */
  upsert(definition: ScheduleDefinition): Promise<ScheduleView>
  /**
   * The schedule, or undefined when the stream holds none of that id.
   * @example `const s = await stream.get("trial-ending"); if (s?.state === "failed") ...`
   */
  get(id: string): Promise<ScheduleView | undefined>
  /**
   * A page of the stream's schedules by id, optionally in one state; pass the cursor back for the next.
   * @example `const { schedules, cursor } = await stream.list({ state: "failed", limit: 50 })`
   */
  list(options?: { state?: ScheduleState; limit?: number; cursor?: string }): Promise<{
    schedules: ScheduleView[]
    cursor: string | null
  }>
  /**
   * Stops a scheduled or failed schedule: nothing more is delivered until it is resumed or upserted. An optional
   * `reason` (at most 1,000 characters) stays on the schedule while it is cancelled (`cancelReason` in its view)
   * and is recorded in its `schedule/cancelled` event.
   * The reason may also be given as the second argument itself.
   * @example `await stream.cancel("trial-ending", { reason: "customer asked for a pause until March" })`
   */
  cancel(id: string, options?: CancelOptions | string): Promise<ScheduleView>
  /**
   * Delivers once more every occurrence a recurring schedule's cadence names from `from` to `to` (a past range,
   * inside its window; at most 1,000): each becomes a one-shot of its own, `<id>~backfill-<run>-<time>`, due at
   * its time on the cadence, with its own idempotency key, so a consumer's dedupe tells it from the live
   * occurrence. They go through the same delivery loop (at most 32 in flight), retries included. Refused for a
   * one-shot (ScheduleStateError); `dryRun: true` only counts them.
   * @example
   * ```ts
   * const { backfill } = await stream.backfill("digest", { from: "2026-03-01T02:00:00Z", to: "2026-03-01T05:00:00Z" })
   * console.log(`${backfill.count} occurrences delivered again`)
   * ```
   */
  backfill(id: string, options: BackfillOptions): Promise<BackfillAnswer>
  /**
   * Starts a failed or cancelled schedule again at its current occurrence, attempts reset.
   * @example `await stream.resume("usage-webhook")`
   */
  resume(id: string): Promise<ScheduleView>
  /**
   * Delivers the current occurrence now; its place on the cadence stays.
   * @example `await stream.trigger("usage-report")`
   */
  trigger(id: string): Promise<ScheduleView>
  /**
   * Deletes a finished or cancelled schedule now; a scheduled one is refused (cancel it first), and
   * so is one cancelled during a delivery, until that delivery's lease ends: gone, its id would
   * start over at occurrence 1 and its key could be delivered while the first delivery runs.
   * @example `await stream.cancel("ping"); await stream.remove("ping")`
   */
  remove(id: string): Promise<ScheduleView>
  /**
   * The stream's newest events (set, cancelled, fired, late, failed, removed), optionally of one schedule.
   * @example `const events = await stream.events({ scheduleId: "trial-ending", limit: 20 })`
   */
  events(options?: { scheduleId?: string; limit?: number; before?: number }): Promise<ScheduleEvent[]>
}

/** How `Schedules.stream` reaches a stream: how long it keeps finished schedules. */
export interface StreamClientOptions {
  /**
   * How long finished schedules (completed, cancelled, failed) are kept after they finished:
   * default 7 days, 0 keeps none, at most 366 days. Sent with each upsert; the stream keeps the last.
   */
  retention?: Duration
}

/**
 * A typed client for one stream: one ScheduleStream Durable Object, named by the stream (a tenant,
 * a feature, or one schedule, as you choose).
 *
 * @example
 * ```ts
 * const stream = Schedules.stream(env.SCHEDULES, "tenant-42", { retention: "30 days" })
 * await stream.upsert({ id: "trial-ending", consumer: "billing.trial-reminder", cron: "0 9 * * *" })
 * ```
 */
export function stream(namespace: StreamNamespace, name: string, options: StreamClientOptions = {}): StreamClient {
  if (namespace == null) {
    throw new StreamUnavailableError(
      "no SCHEDULES binding: schedule streams need a Durable Object each, so they run only on the Worker profile",
    )
  }
  assertName("stream", name)
  const upsertOptions = options.retention === undefined ? {} : { retentionMs: validateRetention(options.retention) }
  const stub = streamRpc(namespace, name)
  return {
    name,
    upsert: async (definition) => {
      if (definition?.payload === undefined) return unwrap(await stub.upsert(name, definition, upsertOptions))
      // Refused here with the field named, and sent as the plain JSON it is stored as: RPC cannot
      // clone some values JSON accepts (objects without a prototype).
      const payload = JSON.parse(encodePayload(definition.payload)) as Json
      return unwrap(await stub.upsert(name, { ...definition, payload }, upsertOptions))
    },
    get: async (id) => {
      const reply = (await stub.get(name, id)) as Reply<ScheduleView>
      return !reply.ok && reply.error.code === "not_found" ? undefined : unwrap(reply)
    },
    list: async (options = {}) => unwrap(await stub.list(name, options)),
    cancel: async (id, options) => {
      // Refused here, naming the field, before the stream is woken.
      const reason = validateReason(typeof options === "string" ? options : options?.reason)
      return unwrap(await stub.cancel(name, id, reason === null ? {} : { reason }))
    },
    backfill: async (id, options) => {
      const { from, to, dryRun } = options ?? ({} as BackfillOptions)
      // A Date travels over RPC as epoch milliseconds: the stream reads every form the same way.
      const instant = (value: unknown) => (value instanceof Date ? value.getTime() : value) as number | string
      return unwrap(await stub.backfill(name, id, { from: instant(from), to: instant(to), dryRun: dryRun === true }))
    },
    resume: async (id) => unwrap(await stub.resume(name, id)),
    trigger: async (id) => unwrap(await stub.trigger(name, id)),
    remove: async (id) => unwrap(await stub.remove(name, id)),
    events: async (options = {}) => unwrap(await stub.events(name, options)) as ScheduleEvent[],
  }
}

function unwrap<T>(reply: Reply<T>): T {
  if (reply.ok) return reply.value
  throw toError(reply.error)
}

export function toError(error: ReplyError): Error {
  switch (error.code) {
    case "invalid":
      // The stream's message is "<field> <problem>", as ScheduleDefinitionError builds it.
      return error.field
        ? new ScheduleDefinitionError(error.field, error.message.slice(error.field.length + 1))
        : new RangeError(error.message)
    case "not_found":
      return new ScheduleNotFoundError(error.message)
    case "conflict":
      return new ScheduleStateError(error.message)
    case "unavailable":
      return new StreamUnavailableError(error.message)
  }
}
