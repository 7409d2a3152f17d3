import { Schedules, type SlotwiseEnv } from "../../src/infra/index.ts"
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
    }
  }
}

/** slotwise's stream as a Worker builds it, with its storage metered like the agent's (meter.ts). */
export class BenchStream extends Schedules.durableObject({ consumers: [noop, flaky] }) {
  readonly meter: StorageMeter

  constructor(ctx: DurableObjectState, env: SlotwiseEnv) {
    const meter = new StorageMeter(ctx.storage)
    super(ctx, env)
    this.meter = meter
  }
}

/** The benchmark's Worker (scripts/bench/wrangler.toml): both systems' Durable Objects, no routes. */
export default {
  fetch: () => new Response("slotwise bench: run `npm run bench`", { status: 404 }),
} satisfies ExportedHandler<Env>
