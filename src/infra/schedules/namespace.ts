/**
 * The `Schedules` namespace of every runtime (the package exports it as `Schedules`). Durable schedules (ARCHITECTURE.md, "Schedules: a stream"): a stream's client, a consumer's declaration, the outcomes a
 * consumer answers, a consumer that starts a Cloudflare Workflow, and the watchdog job that heals a lost alarm. The Durable Object class itself
 * (`Schedules.durableObject`) is Worker-only: the `slotwise` entry adds it, so this module loads
 * on any runtime.
 *
 * @example
 * ```ts
 * export const reminder = Schedules.consumer({
 *   name: "billing.trial-reminder",
 *   deliver: async (delivery, { env }) => { await remind(env, delivery.payload) },
 * })
 *
 * await Schedules.stream(env.SCHEDULES, "tenant-42").upsert({
 *   id: "trial-ending", consumer: "billing.trial-reminder", cron: "0 9 * * *", timezone: "Europe/Berlin",
 * })
 * ```
 */

export { stream } from "./client/stream-client.ts"
export {
  type WorkflowConsumerDefinition,
  type WorkflowParams,
  workflow,
  workflowInstanceId,
} from "./client/workflow.ts"
export { consumer, retry, terminal } from "./contract/consumer.ts"
export { watchdog } from "./directory/watchdog.ts"
