import { Hono } from "hono"
import { Jobs, Schedules } from "slotwise"
import { admin } from "slotwise/admin"
import { consumers } from "./consumers.ts"
import { jobs } from "./jobs.ts"

const workerJobs = Jobs.registry([...jobs, Schedules.watchdog])
const heartbeat = Jobs.heartbeat(workerJobs)

const app = new Hono<{ Bindings: Env }>()
  .get("/", (c) => c.text("the adopter's own route"))
  .post("/remind/:user", async (c) => {
    const stream = Schedules.stream(c.env.SCHEDULES, `user-${c.req.param("user")}`)
    const schedule = await stream.upsert({
      id: "welcome",
      consumer: "adopter.echo",
      after: "1 minute",
      payload: { message: "welcome" },
    })
    return c.json(schedule, 201)
  })
  .route("/ops", admin({ jobs: workerJobs, consumers }))

/** The Worker's own nightly task, on the Cron Trigger it had before slotwise. */
async function nightlyExport(env: Env, scheduledTime: number) {
  await env.DB.prepare("INSERT INTO exports (at) VALUES (?) ON CONFLICT DO NOTHING").bind(scheduledTime).run()
}

export class ScheduleStream extends Schedules.durableObject({ consumers }) {}

export default {
  fetch: app.fetch,
  scheduled: async (controller, env, ctx) => {
    if (controller.cron === "0 3 * * *") return nightlyExport(env, controller.scheduledTime)
    await heartbeat(controller, env, ctx) // "* * * * *": slotwise's jobs
  },
} satisfies ExportedHandler<Env>
