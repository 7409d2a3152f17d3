export { closeExpiredTrials, rollUpUsage } from "./jobs.ts"
export { billingRoutes } from "./routes.ts"
