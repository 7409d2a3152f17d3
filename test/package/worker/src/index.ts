// Every public entry a Worker imports, compiled strict with skipLibCheck off: the published types stand alone.
import { Hono } from "hono"
import { Jobs, Schedules, type SlotwiseEnv } from "slotwise"
import { admin, requireAdmin } from "slotwise/admin"
import { Retry } from "slotwise/portable"

interface Env extends SlotwiseEnv {
  DB: D1Database
}

const tick = Jobs.make({
  name: "lowest.tick",
  cron: "* * * * *",
  exclusive: true,
  timeout: "30 seconds",
  run: async () => {},
})

const echo = Schedules.consumer<{ message: string }>({
  name: "lowest.echo",
  deliver: async (delivery) => {
    if (delivery.payload.message === "") return Schedules.terminal("empty message")
  },
})

const jobs = Jobs.registry([tick, Schedules.watchdog])
const consumers = [echo]

// The route an adopter writes: its own Hono (the lowest declared) mounts slotwise's admin.
const app = new Hono<{ Bindings: Env }>()
  .get("/", (c) => c.json({ retry: typeof Retry }))
  .get("/ops/ping", requireAdmin, (c) => c.text("pong"))
  .route("/admin", admin({ jobs, consumers }))

export class ScheduleStream extends Schedules.durableObject({ consumers }) {}

export default {
  fetch: app.fetch,
  scheduled: Jobs.heartbeat(jobs),
} satisfies ExportedHandler<Env>
