import type { Client } from "@libsql/client"
import { TIMED_OUT } from "../deadline.ts"
import type { SlotwiseEnv } from "../env.ts"
import { UNBOUNDED } from "../jobs/contract/registry.ts"
import { beat } from "../jobs/handlers/heartbeat.ts"
import type { Job, RunResult } from "../jobs/index.ts"
import { activeTracer } from "../tracing/index.ts"
import { d1OverLibsql } from "./libsql/libsql-binding.ts"

export interface RuntimeOptions {
  /** The jobs this replica fires: the same list the Worker's heartbeat runs, less Worker-only jobs. */
  jobs: readonly Job[]
  /** The replica's own libSQL client (openLibsql); or, instead, `d1`. */
  client?: Client
  /** A D1 binding over the replica's database (openContainerDatabase's, e.g. over PostgreSQL). */
  d1?: D1Database
  /** What jobs and routes read from env besides DB (ADMIN_TOKEN, ...): the process's environment. */
  vars?: Record<string, string | undefined>
  /** A clock for tests: it times runs and stands in for the database's clock in their claims (RunDeps.now). */
  now?: () => number
}

/** One container replica's engine, without its server or timer: what both need, and what a test drives. */
export interface Runtime {
  /** The env jobs and routes are handed: the vars, and DB, a D1 binding over the replica's libSQL client. */
  readonly env: SlotwiseEnv
  /** What the app sees as `c.executionCtx`: its waitUntil work is tracked, so a stop waits for it. */
  readonly executionContext: ExecutionContext
  /** Runs, through the heartbeat's beat, every job due in the minute of `scheduledTime`, as the Worker's heartbeat does. */
  beat(scheduledTime: number): Promise<Array<{ job: string } & RunResult>>
  /**
   * Waits at most `ms` for the beats and waitUntil work in flight, including work handed over while
   * it waits; answers how many were still running, and ends their spans with an error (abandoned).
   */
  drain(ms: number): Promise<number>
}

/**
 * A replica's runtime over its own database (a libSQL client, or a D1 binding over PostgreSQL). The env carries no SCHEDULES binding: durable
 * schedule streams need a Durable Object each, which Node replicas cannot place, so routes that
 * need one answer 501 (`streamsRequired`).
 *
 * @example
 * ```ts
 * const runtime = createRuntime({ jobs, client: await openLibsql(), vars: process.env })
 * await runtime.beat(Date.now())
 * const response = await app.fetch(request, runtime.env, runtime.executionContext)
 * ```
 */
export function createRuntime({ jobs, client, d1, vars = {}, now }: RuntimeOptions): Runtime {
  const DB = d1 ?? (client ? d1OverLibsql(client) : undefined)
  if (DB === undefined) throw new TypeError("createRuntime: give client (libSQL) or d1")
  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work)
    const forget = () => inFlight.delete(work)
    work.then(forget, forget)
    return work
  }
  const env = { ...vars, DB } as unknown as SlotwiseEnv
  const waitUntil = (work: Promise<unknown>) => void track(work)
  const executionContext = { waitUntil, passThroughOnException() {}, props: {} } as unknown as ExecutionContext
  return {
    env,
    executionContext,
    beat: (scheduledTime) =>
      track(beat(jobs, scheduledTime, env, { waitUntil, capacity: UNBOUNDED, ...(now ? { now } : {}) })),
    async drain(ms) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), ms)
      })
      try {
        // Work handed to waitUntil while the drain runs (a late claim's release) is waited for too.
        while (inFlight.size > 0) {
          if ((await Promise.race([Promise.allSettled([...inFlight]), deadline])) === TIMED_OUT) {
            activeTracer().abandonOpenSpans?.({
              name: "ShutdownError",
              message: `abandoned at shutdown: still running after the ${ms} ms drain`,
            })
            return inFlight.size
          }
        }
        return 0
      } finally {
        clearTimeout(timer)
      }
    },
  }
}
