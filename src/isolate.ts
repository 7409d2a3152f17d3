import { app } from "./app.ts"
import { Jobs } from "./infra/jobs/index.ts"
import { jobs } from "./jobs.ts"

export default {
  fetch: app.fetch,
  async scheduled(controller, env) {
    await Jobs.beat(jobs, controller.scheduledTime, env)
  },
} satisfies ExportedHandler<Env>
