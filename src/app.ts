import { Hono } from "hono"
import { problem } from "./infra/http/index.ts"
import { describeError, logLine } from "./infra/log.ts"
import { ScheduleDefinitionError } from "./infra/schedules/index.ts"
import { billingRoutes } from "./slices/billing/index.ts"

export const app = new Hono<{ Bindings: Env }>()
  .get("/health", (c) => c.json({ ok: true }))
  .route("/billing", billingRoutes)

app.notFound((c) => problem(c, 404, "Not found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`))
app.onError((error, c) => {
  if (error instanceof ScheduleDefinitionError) {
    return problem(c, 400, "Invalid input", error.message, { field: error.field })
  }
  logLine("error", "request failed", { path: new URL(c.req.url).pathname, error: describeError(error) })
  return problem(c, 500, "Internal error", "the request failed; see the Worker's logs")
})
