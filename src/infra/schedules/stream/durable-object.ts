import type { SlotwiseEnv } from "../../env.ts"
import { consumerRegistry } from "../contract/consumer.ts"
import { ScheduleStream } from "./schedule-stream.ts"
import type { ScheduleStreamOptions } from "./stream-options.ts"

/** A ScheduleStream class as workerd builds it: from the object's state and the Worker's env. */
export type ScheduleStreamClass = new (ctx: DurableObjectState, env: SlotwiseEnv) => ScheduleStream

/**
 * Builds the Worker's ScheduleStream Durable Object class from its consumers. Export a class
 * extending it under the name wrangler.toml binds. `on` listens to the delivery loop's events
 * (StreamEventMap), e.g. for metrics; `clock` replaces `Date.now` as the stream's time.
 *
 * @example
 * ```ts
 * // src/index.ts (the Worker's entry)
 * import { Schedules } from "slotwise"
 * import { consumers } from "./consumers"
 *
 * export class ScheduleStream extends Schedules.durableObject({
 *   consumers,
 *   on: {
 *     "settlement:committed": ({ stream, settled }) => {
 *       for (const { result, stale } of settled) metrics.count("deliveries", { stream, outcome: stale ? "stale" : result.status })
 *     },
 *     "recovery:arming": ({ delayMs }) => metrics.count("stream_recoveries", { delayMs }),
 *   },
 * }) {}
 * ```
 */
export function durableObject(options: ScheduleStreamOptions): ScheduleStreamClass {
  // Built now, so a consumer name declared twice fails the Worker at start-up.
  consumerRegistry(options.consumers)
  return class extends ScheduleStream {
    constructor(ctx: DurableObjectState, env: SlotwiseEnv) {
      super(ctx, env, options)
    }
  }
}
