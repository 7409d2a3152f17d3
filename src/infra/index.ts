/**
 * slotwise, the engine a Worker installs: recurring jobs claimed once per slot through one D1
 * upsert (`Jobs`), and durable per-stream schedules on Durable Objects (`Schedules`). The admin
 * app is `slotwise/admin`; the D1 migrations ship in `slotwise/migrations/`. Everything here but
 * `Schedules.durableObject` and `ScheduleStream` also runs in a Node container (`slotwise/portable`).
 */
import { useTracer } from "./tracing/index.ts"
import { workersTracer } from "./tracing/workers.ts"

export * from "./portable.ts"
export type { Claim, Selection } from "./schedules/stream/core/claim.ts"
export type { DeliveryResult } from "./schedules/stream/core/settle.ts"
export type { ScheduleStreamClass } from "./schedules/stream/durable-object.ts"
export type {
  SettledAnswer,
  SettlingAnswer,
  StreamEventMap,
  StreamListeners,
  TickReport,
} from "./schedules/stream/event-map.ts"
export { ScheduleStream } from "./schedules/stream/schedule-stream.ts"
export type { ScheduleStreamOptions } from "./schedules/stream/stream-options.ts"
// A local export wins over the same name from `export *`: on a Worker, `Schedules` adds `durableObject`.
export * as Schedules from "./schedules/worker-namespace.ts"

// On a Worker, job runs and deliveries are spans of the invocation's trace (wrangler.toml enables traces).
useTracer(workersTracer())
