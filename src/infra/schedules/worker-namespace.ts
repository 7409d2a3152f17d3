/**
 * The `Schedules` namespace on a Worker: every runtime's, and the Durable Object class. Durable schedules (ARCHITECTURE.md, "Schedules: a stream"): a stream's client, a consumer's declaration, the Durable Object
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

export * from "./namespace.ts"
export { durableObject } from "./stream/durable-object.ts"
