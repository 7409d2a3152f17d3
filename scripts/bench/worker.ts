import type { SlotwiseEnv } from "../../src/infra/index.ts"
import { testStreamClass } from "../../src/infra/schedules/stream/testing.ts"
import type { BenchAgent } from "./agent.ts"
import { flaky, noop } from "./consumers.ts"
import { StorageMeter } from "./meter.ts"

export { BenchAgent } from "./agent.ts"

declare global {
  namespace Cloudflare {
    interface Env {
      AGENT: DurableObjectNamespace<BenchAgent>
      BENCH_MIGRATIONS: import("cloudflare:test").D1Migration[]
      /** "1": the small CI run. */
      BENCH_SMOKE?: string
      /** profile.ts's local HTTP hook that starts and stops the CPU profiler (profile.bench.ts). */
      BENCH_PROFILE_HOOK?: string
      /** How many one-shots the profiled burst delivers. */
      BENCH_PROFILE_N?: string
      /** "1": profile ticks back to back (the limit workload's path) instead of the real-time burst. */
      BENCH_PROFILE_TICKS?: string
      BENCH_JOBS_N?: string
    }
  }
}

/**
 * slotwise's stream as a Worker builds it, with its storage metered like the agent's (meter.ts),
 * and a clock the workloads set for a tick (testing.ts).
 */
export class BenchStream extends testStreamClass({ consumers: [noop, flaky] }) {
  readonly meter: StorageMeter

  constructor(ctx: DurableObjectState, env: SlotwiseEnv) {
    const meter = new StorageMeter(ctx.storage)
    super(ctx, env)
    this.meter = meter
  }

  /** Delivers what is due at `at`: the tick runs with the clock set there, then real time again. */
  tickAt(at: number) {
    return this.atTime(at, () => this.tick())
  }

  /** Runs the stream's alarm handler at `at`, as Cloudflare calls it: its batches back to back, one log line. */
  alarmAt(at: number) {
    return this.atTime(at, () => this.alarm())
  }

  private async atTime<T>(at: number, work: () => Promise<T>): Promise<T> {
    this.setNow(at)
    try {
      return await work()
    } finally {
      this.setNow(undefined)
    }
  }
}

/** The benchmark's Worker (scripts/bench/wrangler.toml): both systems' Durable Objects, no routes. */
export default {
  fetch: () => new Response("slotwise bench: run `npm run bench`", { status: 404 }),
} satisfies ExportedHandler<Env>
