import { Alerts } from "slotwise/portable"
import { closeExpiredTrials, rollUpUsage } from "./jobs.ts"

/** The billing jobs' alert rules, declared next to the jobs: the ops slice's alerts job judges them each minute. */
export const billingAlerts = [
  // Trials left open two nights running is a support queue in the morning.
  Alerts.jobFailed(closeExpiredTrials, { slots: 2 }),
  // Usage rolls up every minute: five minutes without a run and invoices drift.
  Alerts.jobFailed(rollUpUsage, { slots: 5 }),
  Alerts.jobMissed(rollUpUsage, { slots: 5 }),
]
