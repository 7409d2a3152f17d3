import { app } from "./app.ts"
import { consumers } from "./consumers.ts"
import { Jobs } from "./infra/jobs/index.ts"
import { jobs } from "./jobs.ts"

export { ScheduleStream } from "./infra/schedules/index.ts"

// Reads the consumer list now, so a duplicate consumer name fails at start-up.
void consumers.names

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    await Jobs.beat(jobs, controller.scheduledTime, env, { waitUntil: ctx.waitUntil.bind(ctx) })
  },
} satisfies ExportedHandler<Env>
