import { env, evictDurableObject, runInDurableObject } from "cloudflare:test"
import type { BenchAgent } from "./agent.ts"
import { wholeSecondAfter } from "./lead.ts"
import type { Rows } from "./meter.ts"
import { forget, type Mark } from "./record.ts"
import type { SystemName } from "./result.ts"
import type { BenchStream } from "./worker.ts"

/** What a schedule calls when due: a slotwise consumer `bench.<name>`, or the agent's method `<name>`. */
export type Callback = "noop" | "flaky"

/**
 * One Durable Object of one system, driven through that system's public API. Calls run in the
 * object's own isolate (runInDurableObject), the same way for both: an RPC per schedule would
 * measure the test harness, not the scheduler.
 */
export interface Target {
  readonly system: SystemName
  /** The object's name; also the stream's name, and the `run` of every payload. */
  readonly name: string
  /** Creates schedules `from` .. `to - 1`, each due once at `at` (epoch ms). */
  once(from: number, to: number, at: number, callback: Callback): Promise<void>
  /** Creates schedules 0 .. count - 1, each repeating every second; answers their ids. */
  everySecond(count: number, callback: Callback): Promise<string[]>
  cancel(ids: readonly string[]): Promise<void>
  /** Starts counting storage rows from zero. */
  meterStart(): Promise<void>
  meterRead(): Promise<Rows>
  databaseSize(): Promise<number>
  alarm(): Promise<number | null>
  /**
   * Runs the object's alarm now, if one is set, as runDurableObjectAlarm (cloudflare:test) does,
   * and answers the rows it cost (null: no alarm was set). The harness's own deleteAlarm is not counted.
   */
  runAlarm(): Promise<Rows | null>
  /**
   * Creates one-shot `i` due at the next whole second at least 1 s on (the Agent keeps whole seconds),
   * deletes the alarm it set before it can fire, waits for the due time, then runs the alarm handler:
   * the rows of an alarm whose one delivery is the only thing due.
   */
  lone(i: number, callback: Callback): Promise<Rows>
  /** Deletes the alarm: nothing of this object runs again. */
  quiet(): Promise<void>
  /**
   * Forgets the run's records and evicts the object from memory once measured, so that the one
   * isolate does not carry every object of the earlier workloads (and their collections) into the next.
   */
  done(): Promise<void>
}

/** runDurableObjectAlarm's steps, with the meter counting the alarm handler alone. */
async function metered(object: BenchStream | BenchAgent, state: DurableObjectState): Promise<Rows | null> {
  if ((await state.storage.getAlarm()) === null) return null
  await state.storage.deleteAlarm()
  object.meter.start()
  await object.alarm()
  return object.meter.read()
}

const mark = (name: string, i: number): Mark => ({ run: name, i })

/** `create` one due at `at`, its alarm deleted, then the handler run and metered once `at` passed. */
async function aloneInAlarm(
  object: BenchStream | BenchAgent,
  state: DurableObjectState,
  create: (at: number) => Promise<unknown>,
): Promise<Rows> {
  // At least a second on, so that its alarm is deleted before it fires; a whole second, as the Agent keeps it.
  const at = wholeSecondAfter(Date.now(), 1_000)
  await create(at)
  await state.storage.deleteAlarm()
  while (Date.now() <= at) await scheduler.wait(Math.max(1, at + 1 - Date.now()))
  object.meter.start()
  await object.alarm()
  return object.meter.read()
}

/** The stream named `name`: env.SCHEDULES is bound to BenchStream here (wrangler.toml), typed for the app's class. */
export function streamStub(name: string): DurableObjectStub<BenchStream> {
  const namespace = env.SCHEDULES as unknown as DurableObjectNamespace<BenchStream>
  return namespace.get(namespace.idFromName(name))
}

function stream(name: string): Target {
  const stub = streamStub(name)
  const inside = <R>(work: (stream: BenchStream, state: DurableObjectState) => R | Promise<R>) =>
    runInDurableObject(stub, work)
  const ok = <T>(reply: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
    if (!reply.ok) throw new Error(`slotwise refused: ${reply.error.message}`)
    return reply.value
  }
  return {
    system: "slotwise",
    name,
    once: (from, to, at, callback) =>
      inside(async (s) => {
        for (let i = from; i < to; i++) {
          ok(await s.upsert(name, { id: `s${i}`, consumer: `bench.${callback}`, at, payload: mark(name, i) }))
        }
      }),
    everySecond: (count, callback) =>
      inside(async (s) => {
        const ids: string[] = []
        for (let i = 0; i < count; i++) {
          const definition = { id: `e${i}`, consumer: `bench.${callback}`, every: 1000, payload: mark(name, i) }
          ids.push(ok(await s.upsert(name, definition)).id)
        }
        return ids
      }),
    cancel: (ids) =>
      inside(async (s) => {
        for (const id of ids) ok(await s.cancel(name, id))
      }),
    meterStart: () => inside((s) => s.meter.start()),
    meterRead: () => inside((s) => s.meter.read()),
    databaseSize: () => inside((_, state) => state.storage.sql.databaseSize),
    alarm: () => inside((_, state) => state.storage.getAlarm()),
    runAlarm: () => inside(metered),
    lone: (i, callback) =>
      inside((s, state) =>
        aloneInAlarm(s, state, async (at) =>
          ok(await s.upsert(name, { id: `s${i}`, consumer: `bench.${callback}`, at, payload: mark(name, i) })),
        ),
      ),
    quiet: () => inside((_, state) => state.storage.deleteAlarm()),
    done: () => retire(name, stub),
  }
}

/** Forgets the records of run `name` and evicts its object (Target.done). */
export async function retire(name: string, stub: DurableObjectStub): Promise<void> {
  forget(name)
  await evictDurableObject(stub)
}

function agent(name: string): Target {
  const stub = env.AGENT.get(env.AGENT.idFromName(name))
  const inside = <R>(work: (agent: BenchAgent, state: DurableObjectState) => R | Promise<R>) =>
    runInDurableObject(stub, work)
  return {
    system: "agents",
    name,
    once: (from, to, at, callback) =>
      inside(async (a) => {
        for (let i = from; i < to; i++) await a.schedule(new Date(at), callback, mark(name, i))
      }),
    everySecond: (count, callback) =>
      inside(async (a) => {
        const ids: string[] = []
        // A distinct payload each: scheduleEvery() returns the existing schedule for the same callback and payload.
        for (let i = 0; i < count; i++) ids.push((await a.scheduleEvery(1, callback, mark(name, i))).id)
        return ids
      }),
    cancel: (ids) =>
      inside(async (a) => {
        for (const id of ids) {
          if (!(await a.cancelSchedule(id))) throw new Error(`agents: no schedule ${id} to cancel`)
        }
      }),
    meterStart: () => inside((a) => a.meter.start()),
    meterRead: () => inside((a) => a.meter.read()),
    databaseSize: () => inside((_, state) => state.storage.sql.databaseSize),
    alarm: () => inside((_, state) => state.storage.getAlarm()),
    runAlarm: () => inside(metered),
    lone: (i, callback) =>
      inside((a, state) => aloneInAlarm(a, state, (at) => a.schedule(new Date(at), callback, mark(name, i)))),
    quiet: () => inside((_, state) => state.storage.deleteAlarm()),
    done: () => retire(name, stub),
  }
}

export const target = (system: SystemName, name: string): Target => (system === "slotwise" ? stream(name) : agent(name))
