// Every public entry a Worker imports, compiled strict with skipLibCheck off: the published types stand alone.
import { Hono } from "hono"
import { Jobs, Schedules, type SlotwiseEnv } from "slotwise"
import { admin, problem, requireAdmin, validate } from "slotwise/admin"
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

/** A Standard Schema written by hand (any validation library's would do): validate's types resolve without zod's. */
const greeting = {
  "~standard": {
    version: 1,
    vendor: "slotwise-package-test",
    validate: (value: unknown) =>
      typeof (value as { name?: unknown } | null)?.name === "string"
        ? { value: value as { name: string } }
        : { issues: [{ message: "must be a string", path: ["name"] }] },
    types: undefined as unknown as { input: { name: string }; output: { name: string } },
  },
} as const

const jobs = Jobs.registry([tick, Schedules.watchdog])
const consumers = [echo]

// The route an adopter writes: its own Hono (the lowest declared) mounts slotwise's admin.
const app = new Hono<{ Bindings: Env }>()
  .get("/", (c) => c.json({ retry: typeof Retry }))
  .get("/ops/ping", requireAdmin, (c) => c.text("pong"))
  // The application's own route with admin's validation and problem+json answers.
  .post("/ops/greet", requireAdmin, validate("json", greeting), (c) => {
    const { name } = c.req.valid("json")
    return name === "nobody" ? problem(c, 404, "Not found", "nobody to greet", { field: "name" }) : c.text(`hi ${name}`)
  })
  .route("/admin", admin({ jobs, consumers }))

export class ScheduleStream extends Schedules.durableObject({ consumers }) {}

export default {
  fetch: app.fetch,
  scheduled: Jobs.heartbeat(jobs),
} satisfies ExportedHandler<Env>
