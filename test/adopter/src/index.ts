import { Hono } from "hono"
import { Jobs, Schedules } from "slotwise"
import { admin } from "slotwise/admin"
import { consumers } from "./consumers.ts"
import { jobs } from "./jobs.ts"

const workerJobs = Jobs.registry([...jobs, Schedules.watchdog])

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

export class ScheduleStream extends Schedules.durableObject({ consumers }) {}

export default {
  fetch: app.fetch,
  scheduled: Jobs.heartbeat(workerJobs),
} satisfies ExportedHandler<Env>
