export { billingAlerts } from "./alerts.ts"
export { trialReminder, usageReport, usageWebhook } from "./consumers.ts"
export { closeExpiredTrials, rollUpUsage } from "./jobs.ts"
export { billingRoutes } from "./routes.ts"
