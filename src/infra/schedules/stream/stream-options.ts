import type { Consumer } from "../contract/consumer.ts"
import type { StreamListeners } from "./event-map.ts"

/** What a Worker builds its ScheduleStream class with. */
export interface ScheduleStreamOptions {
  /** Every consumer the Worker's schedules may name; a name declared twice fails at start-up. */
  consumers: readonly Consumer[]
  /**
   * The stream's time in epoch milliseconds (default `Date.now`): due times, leases, backoff and
   * alarms all read it. A test passes a clock it owns to drive a stream without waiting.
   */
  clock?: () => number
  /** Listeners to the delivery loop's events (StreamEventMap): for metrics or logs; they only observe. */
  on?: StreamListeners
}
