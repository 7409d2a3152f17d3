import { trialReminder, usageReport, usageWebhook } from "./slices/billing/index.ts"
import { alertWebhook } from "./slices/ops/index.ts"
import { monthlyStatement } from "./slices/statements/index.ts"

/** Every slice's schedule consumers, handed to the ScheduleStream class and to admin. */
export const consumers = [trialReminder, usageReport, usageWebhook, monthlyStatement, alertWebhook]
