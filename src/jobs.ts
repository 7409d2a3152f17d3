import { Jobs } from "./infra/jobs/index.ts"
import { alarmWatchdog } from "./infra/schedules/watchdog.ts"
import { closeExpiredTrials, rollUpUsage } from "./slices/billing/index.ts"

/** Every slice's jobs, and the platform's own; a duplicate name fails at start-up. */
export const jobs = Jobs.registry([closeExpiredTrials, rollUpUsage, alarmWatchdog])
