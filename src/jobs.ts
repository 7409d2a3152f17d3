import { Jobs } from "slotwise/portable"
import { closeExpiredTrials, rollUpUsage } from "./slices/billing/index.ts"

/** Every slice's jobs, the same on every runtime profile; a duplicate name fails at start-up. */
export const jobs = Jobs.registry([closeExpiredTrials, rollUpUsage])
