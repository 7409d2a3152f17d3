import { Schedules } from "./infra/schedules/schedules.ts"
import { trialReminder, usageReport, usageWebhook } from "./slices/billing/index.ts"

/** Every slice's schedule consumers; a duplicate name fails at start-up. */
export const consumers = Schedules.consumers(() => [trialReminder, usageReport, usageWebhook])
