import { createApp } from "../../src/app.ts"
import { Jobs, Schedules } from "../../src/infra/index.ts"
import { jobs } from "../../src/jobs.ts"
import { consumers } from "./consumers.ts"

/**
 * The tests' Worker (vitest.config.ts `main`): the example app as src/isolate.ts builds it, with
 * the scripted test consumers beside the app's, through the same public calls.
 */
export const workerJobs = Jobs.registry([...jobs, Schedules.watchdog])
export const app = createApp({ jobs: workerJobs, consumers })

export class ScheduleStream extends Schedules.durableObject({ consumers }) {}

export default {
  fetch: app.fetch,
  scheduled: Jobs.heartbeat(workerJobs),
} satisfies ExportedHandler<Env>
