/**
 * The `Alerts` namespace (the package exports it as `Alerts`): rules declared in code next to what they watch,
 * judged each minute by one exclusive job, each incident delivered once when it opens and once when it resolves,
 * as a one-shot schedule of the alert stream to a consumer you write (a webhook, email, Slack).
 *
 * @example
 * ```ts
 * export const alerts = Alerts.job({
 *   consumer: "ops.alert-webhook",
 *   rules: [Alerts.jobFailed(closeExpiredTrials, { slots: 3 }), Alerts.heartbeatLate({ after: "5 minutes" })],
 * })
 * ```
 */

export { job } from "./alert-job.ts"
export { heartbeatLate, jobFailed, jobMissed, scheduleFailed, streamOverdue } from "./rule.ts"
