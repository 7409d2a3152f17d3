import { env, runInDurableObject } from "cloudflare:test"
import { Schedules } from "../../src/infra/index.ts"
import type { StreamRpc } from "../../src/infra/schedules/client/client.ts"
import { DEFAULT_RETENTION_MS } from "../../src/infra/schedules/client/contract.ts"
import type { ScheduleEvent, ScheduleStream, StreamHooks } from "../../src/infra/schedules/index.ts"
import { consumers } from "./consumers.ts"

/** Far in the future, so that no real alarm fires in the middle of a test that drives time. */
export const T0 = Date.UTC(2100, 0, 4, 8, 0)
export const SECOND = 1_000
/** A stream holding only finished rows keeps its alarm for the first of them to leave the retention window. */
export const RETAINED = DEFAULT_RETENTION_MS

let streams = 0
/** A fresh stream per call, driven with an injected clock. */
export function openStream(prefix = "stream") {
  const name = `${prefix}-${++streams}`
  const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(name))
  const rpc = stub as unknown as StreamRpc & Pick<ScheduleStream, "tick">
  const inside = <R>(fn: (instance: ScheduleStream, state: DurableObjectState) => R | Promise<R>) =>
    runInDurableObject(stub, fn)
  return {
    name,
    stub,
    upsert: (definition: Record<string, unknown>, now = T0, options: { retentionMs?: number } = {}) =>
      rpc.upsert(name, definition, { now, ...options }),
    get: (id: string) => rpc.get(name, id),
    list: (options: Parameters<StreamRpc["list"]>[1] = {}) => rpc.list(name, options),
    cancel: (id: string, now = T0) => rpc.cancel(name, id, { now }),
    resume: (id: string, now = T0) => rpc.resume(name, id, { now }),
    trigger: (id: string, now = T0) => rpc.trigger(name, id, { now }),
    remove: (id: string, now = T0) => rpc.remove(name, id, { now }),
    events: (options: Parameters<StreamRpc["events"]>[1] = {}) => rpc.events(name, options),
    tick: (now: number) => rpc.tick(now),
    inside,
    /** The raw stored row, straight from the stream's SQLite. */
    row: (id: string) =>
      inside((_, state) => state.storage.sql.exec("SELECT * FROM schedules WHERE id = ?", id).toArray()[0]),
    alarm: () => inside((_, state) => state.storage.getAlarm()),
    counts: () =>
      inside((_, state) => ({
        schedules: Number(state.storage.sql.exec("SELECT count(*) AS n FROM schedules").one().n),
        events: Number(state.storage.sql.exec("SELECT count(*) AS n FROM events").one().n),
      })),
    /** Every stored row and event, to prove a refused call changed nothing. */
    snapshot: () =>
      inside((_, state) =>
        JSON.stringify([
          state.storage.sql.exec("SELECT * FROM schedules ORDER BY id").toArray(),
          state.storage.sql.exec("SELECT * FROM events ORDER BY seq").toArray(),
        ]),
      ),
  }
}

export type TestStream = ReturnType<typeof openStream>

/**
 * The stream's object driven by an instance of the tests' ScheduleStream built with `hooks`, on the
 * object's own storage: every upsert and tick goes through it (the object's own instance stays idle).
 */
export function hookedStream(stream: TestStream, hooks: StreamHooks) {
  let hooked: ScheduleStream | undefined
  const through = <R>(call: (instance: ScheduleStream) => Promise<R>) =>
    stream.inside((_, state) => {
      hooked ??= new (Schedules.durableObject({ consumers, hooks }))(state, env)
      return call(hooked)
    })
  return {
    upsert: (definition: Record<string, unknown>, now = T0) =>
      through((instance) => instance.upsert(stream.name, definition, { now })),
    tick: (now: number) => through((instance) => instance.tick(now)),
  }
}

/** Waits (bounded) until `condition` holds; for a delivery in flight on another request. */
export async function until(condition: () => boolean, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/** The value of a successful reply, or the test fails with the refusal. */
export function value<T>(reply: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!reply.ok) throw new Error(`expected ok, got ${JSON.stringify(reply.error)}`)
  return reply.value
}

/** The stored row's columns, as SQLite holds them. */
export interface StoredRow {
  state: string
  occurrence: number
  next_at: number
  retry_at: number | null
  claim_until: number | null
  claim_token: string | null
  attempts: number
  last_error: string | null
  finished_at: number | null
}

export async function storedRow(stream: Pick<TestStream, "row">, id: string): Promise<StoredRow> {
  const row = await stream.row(id)
  if (!row) throw new Error(`no stored row "${id}"`)
  return row as unknown as StoredRow
}

/** A schedule's events, newest first. */
export async function eventsOf(stream: Pick<TestStream, "events">, id: string): Promise<ScheduleEvent[]> {
  return value(await stream.events({ scheduleId: id, limit: 500 }))
}

/** Lets work already under way (a late answer, its settlement) run for a moment. */
export const pause = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms))
