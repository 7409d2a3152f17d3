import { Jobs, Schedules } from "slotwise"
import { createApp } from "./app.ts"
import { consumers } from "./consumers.ts"
import { jobs } from "./jobs.ts"
import { alerts } from "./slices/ops/index.ts"

/** The Worker profile's jobs: every slice's, the watchdog that heals a stream's lost alarm, and the alerts job. */
const workerJobs = Jobs.registry([...jobs, Schedules.watchdog, alerts])
const app = createApp({ jobs: workerJobs, consumers })

/** One Durable Object per schedule stream, delivering to these consumers (wrangler.toml binds it as SCHEDULES). */
export class ScheduleStream extends Schedules.durableObject({ consumers }) {}

/** The statements slice's Workflow (wrangler.toml binds it as STATEMENTS); the statements.monthly schedule starts it. */
export { StatementWorkflow } from "./slices/statements/workflow.ts"

export default {
  fetch: app.fetch,
  scheduled: Jobs.heartbeat(workerJobs),
} satisfies ExportedHandler<Env>
