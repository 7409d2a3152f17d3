/**
 * The `Jobs` namespace, what a Worker calls (the package exports it as `Jobs`). Recurring jobs declared in code: a job is a value (`Jobs.make`), the Worker's list is checked
 * once (`Jobs.registry`), and the heartbeat runs each slot's due jobs through `Jobs.run`, the one
 * boundary (lease if exclusive, timeout, one log line), or hands each to a Queue whose handler,
 * `Jobs.queue`, runs it in an invocation of its own.
 *
 * @example
 * ```ts
 * export const closeExpiredTrials = Jobs.make({
 *   name: "billing.close-expired-trials",
 *   cron: "0 3 * * *",
 *   exclusive: true,
 *   timeout: "5 minutes",
 *   run: (slot, ctx) => closeDueAt(ctx.env, slot),
 * })
 * export const jobs = Jobs.registry([closeExpiredTrials])
 * export default { fetch: app.fetch, scheduled: Jobs.heartbeat(jobs) }
 * ```
 */

// biome-ignore assist/source/organizeImports: the members in the order a user meets them, which the API report keeps
export { make } from "./contract/definition.ts"
export { heartbeat } from "./handlers/heartbeat.ts"
export { queue } from "./handlers/queue-handler.ts"
export { registry } from "./contract/registry.ts"
export { run } from "./handlers/run.ts"
