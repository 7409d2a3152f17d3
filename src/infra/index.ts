/**
 * slotwise, the engine a Worker installs: recurring jobs claimed once per slot through one D1
 * upsert (`Jobs`), and durable per-stream schedules on Durable Objects (`Schedules`). The admin
 * app is `slotwise/admin`; the D1 migrations ship in `slotwise/migrations/`. Everything here but
 * `Schedules.durableObject` and `ScheduleStream` also runs in a Node container (`slotwise/portable`).
 */
import { Schedules as PortableSchedules } from "./schedules/index.ts"
import { durableObject } from "./schedules/stream/stream.ts"
import { useTracer } from "./tracing/index.ts"
import { workersTracer } from "./tracing/workers.ts"

export * from "./portable.ts"
export type {
  Claim,
  DeliveryResult,
  SettledAnswer,
  SettlingAnswer,
  StreamEventMap,
  StreamListeners,
  TickReport,
} from "./schedules/index.ts"
export { ScheduleStream, type StreamOptions } from "./schedules/stream/stream.ts"

/**
 * Durable schedules (ADR 0202): a stream's client, a consumer's declaration, the Durable Object
 * class built from the consumers, the outcomes a consumer answers, and the watchdog job that
 * heals a lost alarm.
 *
 * @example
 * ```ts
 * export const reminder = Schedules.consumer({
 *   name: "billing.trial-reminder",
 *   deliver: async (delivery, { env }) => { await remind(env, delivery.payload) },
 * })
 * export class ScheduleStream extends Schedules.durableObject({ consumers: [reminder] }) {}
 *
 * await Schedules.stream(env.SCHEDULES, "tenant-42").upsert({
 *   id: "trial-ending", consumer: "billing.trial-reminder", cron: "0 9 * * *", timezone: "Europe/Berlin",
 * })
 * ```
 */
export const Schedules = { ...PortableSchedules, durableObject }

// On a Worker, job runs and deliveries are spans of the invocation's trace (wrangler.toml enables traces).
useTracer(workersTracer())
