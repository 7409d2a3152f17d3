import { Alerts } from "slotwise/portable"
import { billingAlerts } from "../billing/index.ts"
import { alertWebhook } from "./consumers.ts"

/**
 * The Worker's alerts job: every slice's rules, the heartbeat's dead man's switch and the streams', judged each
 * minute; each incident is delivered to ops.alert-webhook once when it opens and once when it resolves.
 */
export const alerts = Alerts.job({
  consumer: alertWebhook.name,
  rules: [
    ...billingAlerts,
    Alerts.heartbeatLate({ after: "5 minutes" }),
    Alerts.streamOverdue({ after: "10 minutes" }),
    // npm start's demo stream holds a webhook that fails: its schedules going failed are alerted.
    Alerts.scheduleFailed({ stream: "demo" }),
  ],
})
