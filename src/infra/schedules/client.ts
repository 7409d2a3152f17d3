import type { Duration } from "../duration.ts"
import {
  assertName,
  encodePayload,
  type Json,
  type ScheduleDefinition,
  ScheduleDefinitionError,
  type ScheduleState,
  validateRetention,
} from "./contract.ts"
import type { ScheduleEvent } from "./events.ts"
import type { Reply, ReplyError } from "./reply.ts"
import type { ScheduleStream } from "./stream.ts"
import type { ScheduleView } from "./view.ts"

export class ScheduleNotFoundError extends Error {
  override name = "ScheduleNotFoundError"
}
export class ScheduleStateError extends Error {
  override name = "ScheduleStateError"
}
export class StreamUnavailableError extends Error {
  override name = "StreamUnavailableError"
}

export interface StreamClient {
  readonly name: string
  upsert(definition: ScheduleDefinition): Promise<ScheduleView>
  get(id: string): Promise<ScheduleView | undefined>
  list(options?: { state?: ScheduleState; limit?: number; cursor?: string }): Promise<{
    schedules: ScheduleView[]
    cursor: string | null
  }>
  cancel(id: string): Promise<ScheduleView>
  resume(id: string): Promise<ScheduleView>
  trigger(id: string): Promise<ScheduleView>
  /** Deletes a finished or cancelled schedule now; a scheduled one is refused (cancel it first). */
  remove(id: string): Promise<ScheduleView>
  events(options?: { scheduleId?: string; limit?: number; before?: number }): Promise<ScheduleEvent[]>
}

// The methods as the class declares them: deriving the stub's RPC types is too deep for tsc.
export type StreamRpc = Pick<
  ScheduleStream,
  "upsert" | "get" | "list" | "cancel" | "resume" | "trigger" | "remove" | "events"
>

export interface StreamOptions {
  /**
   * How long finished schedules (completed, cancelled, failed) are kept after they finished:
   * default 7 days, 0 keeps none, at most 366 days. Sent with each upsert; the stream keeps the last.
   */
  retention?: Duration
}

/** The stream's Durable Object, whose methods answer a Reply; the admin routes map it to HTTP. */
export const streamRpc = (namespace: DurableObjectNamespace<ScheduleStream>, name: string) =>
  namespace.get(namespace.idFromName(name)) as unknown as StreamRpc

/** A typed client for one stream: one ScheduleStream Durable Object, named by the stream. */
export function stream(
  namespace: DurableObjectNamespace<ScheduleStream>,
  name: string,
  options: StreamOptions = {},
): StreamClient {
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
    cancel: async (id) => unwrap(await stub.cancel(name, id)),
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
