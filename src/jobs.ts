import { Jobs } from "./infra/jobs/index.ts"
import { closeExpiredTrials, rollUpUsage } from "./slices/billing/index.ts"

/** Every slice's jobs; a duplicate name fails at start-up. */
export const jobs = Jobs.registry([closeExpiredTrials, rollUpUsage])
