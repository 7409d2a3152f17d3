import { env, runInDurableObject } from "cloudflare:test"
import { DEFAULT_RETENTION_MS } from "../../src/infra/schedules/contract/limits.ts"
import type { StreamRpc } from "../../src/infra/schedules/contract/rpc.ts"
import type { ScheduleEvent } from "../../src/infra/schedules/index.ts"
import { MIGRATIONS } from "../../src/infra/schedules/stream/schema.ts"
import {
  type TestScheduleStream,
  type TestStreamOptions,
  testStreamClass,
} from "../../src/infra/schedules/stream/testing.ts"
import { consumers } from "./consumers.ts"
import { storedEvents, storedRows } from "./stored.ts"

/** Far in the future, so that no real alarm fires in the middle of a test that drives time. */
export const T0 = Date.UTC(2100, 0, 4, 8, 0)
export const SECOND = 1_000
/** A stream holding only finished rows keeps its alarm for the first of them to leave the retention window. */
export const RETAINED = DEFAULT_RETENTION_MS

let streams = 0
/** The tests' ScheduleStream (test/support/worker.ts) as its RPC stub shows it. */
export type TestStub = StreamRpc & Pick<TestScheduleStream, "tick" | "nudge" | "setNow">

/** The stub of the stream `name`, in the tests' Worker. */
export const stubOf = (name: string) => env.SCHEDULES.get(env.SCHEDULES.idFromName(name)) as unknown as TestStub

/** Sets the stream's clock to `now`, then ticks: what is due at `now` is delivered. */
export async function tickAt(stub: Pick<TestStub, "tick" | "setNow">, now: number) {
  await stub.setNow(now)
  return stub.tick()
}

/**
 * A fresh stream per call, driven by its clock: each call that takes a time first sets the
 * stream's clock there (null: real time), and the clock stays there (late settlements and the
 * stream's own alarms read it) until set again.
 */
export function openStream(prefix = "stream") {
  const name = `${prefix}-${++streams}`
  const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(name))
  const rpc = stub as unknown as TestStub
  const inside = <R>(fn: (instance: TestScheduleStream, state: DurableObjectState) => R | Promise<R>) =>
    runInDurableObject(stub, fn as (instance: unknown, state: DurableObjectState) => R | Promise<R>)
  const at = async <R>(now: number | null, call: () => Promise<R>) => {
    await rpc.setNow(now ?? undefined)
    return call()
  }
  return {
    name,
    stub,
    upsert: (definition: Record<string, unknown>, now: number | null = T0, options: { retentionMs?: number } = {}) =>
      at(now, () => rpc.upsert(name, definition, options)),
    get: (id: string) => rpc.get(name, id),
    list: (options: Parameters<StreamRpc["list"]>[1] = {}) => rpc.list(name, options),
    cancel: (id: string, now = T0) => at(now, () => rpc.cancel(name, id)),
    resume: (id: string, now = T0) => at(now, () => rpc.resume(name, id)),
    trigger: (id: string, now = T0) => at(now, () => rpc.trigger(name, id)),
    remove: (id: string, now = T0) => at(now, () => rpc.remove(name, id)),
    events: (options: Parameters<StreamRpc["events"]>[1] = {}) => rpc.events(name, options),
    history: (range: Parameters<StreamRpc["history"]>[1]) => rpc.history(name, range),
    tick: (now: number) => tickAt(rpc, now),
    /** The stream's time from now on (undefined: real time again). */
    setNow: (now: number | undefined) => rpc.setNow(now),
    inside,
    /** The stored row, straight from the stream's SQLite, with the claim a batch record lays over it (stored.ts). */
    row: (id: string) => inside((_, state) => storedRows(state.storage.sql).find((row) => row.id === id)),
    alarm: () => inside((_, state) => state.storage.getAlarm()),
    counts: () =>
      inside((_, state) => ({
        schedules: Number(state.storage.sql.exec("SELECT count(*) AS n FROM schedules").one().n),
        events: storedEvents(state.storage.sql).length,
      })),
    /** Every stored row, claim record, journal entry and removal, to prove a refused call changed nothing. */
    snapshot: () =>
      inside((_, state) =>
        JSON.stringify([
          state.storage.sql.exec("SELECT * FROM schedules ORDER BY id").toArray(),
          ...["claims", "finished", "removed"].map((table) =>
            state.storage.sql.exec(`SELECT * FROM ${table} ORDER BY 1, 2`).toArray(),
          ),
        ]),
      ),
  }
}

export type TestStream = ReturnType<typeof openStream>

/**
 * The stream's object driven by an instance of a test stream class built with `seams` (testing.ts),
 * on the object's own storage: every upsert and tick goes through it (the object's own instance stays idle).
 */
export function seamedStream(stream: TestStream, seams: Omit<TestStreamOptions, "consumers">) {
  let seamed: TestScheduleStream | undefined
  const through = <R>(now: number, call: (instance: TestScheduleStream) => Promise<R>) =>
    stream.inside((_, state) => {
      seamed ??= new (testStreamClass({ consumers, ...seams }))(state, env)
      seamed.setNow(now)
      return call(seamed)
    })
  return {
    upsert: (definition: Record<string, unknown>, now = T0) =>
      through(now, (instance) => instance.upsert(stream.name, definition)),
    tick: (now: number) => through(now, (instance) => instance.tick()),
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

/** Rebuilds a stream's storage, empty, as schema `version` left it: what an older deploy stored. */
export function storageAt(sql: SqlStorage, stream: string, version: number): void {
  // Every table of the stream's own (the runtime's _cf_ tables stay), so a step's table can be created again.
  const tables = sql.exec<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  )
  for (const { name } of tables.toArray()) sql.exec(`DROP TABLE "${name}"`)
  sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
  for (let step = 1; step <= version; step++) {
    for (const statement of MIGRATIONS[step]?.split(";") ?? []) if (statement.trim()) sql.exec(statement)
  }
  sql.exec("INSERT INTO meta (key, value) VALUES ('schema_version', ?), ('stream', ?)", String(version), stream)
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

/**
 * The key of occurrence `occurrence` of the row stored now under `id`, as docs/schedules.md writes it:
 * `schedule:<stream>/<id>@<incarnation>:<occurrence>` (a row stored before incarnations: without `@<incarnation>`).
 */
export async function keyOf(stream: Pick<TestStream, "name" | "row">, id: string, occurrence: number): Promise<string> {
  const row = await stream.row(id)
  if (!row) throw new Error(`no stored row "${id}"`)
  const incarnation = row.incarnation as number | null
  return incarnation === null
    ? `schedule:${stream.name}/${id}:${occurrence}`
    : `schedule:${stream.name}/${id}@${incarnation.toString(16).padStart(12, "0")}:${occurrence}`
}

/** A schedule's events, newest first. */
export async function eventsOf(stream: Pick<TestStream, "events">, id: string): Promise<ScheduleEvent[]> {
  return value(await stream.events({ scheduleId: id, limit: 500 }))
}

/** Lets work already under way (a late answer, its settlement) run for a moment. */
export const pause = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms))
