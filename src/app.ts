import { Hono } from "hono"
import { HTTPException } from "hono/http-exception"
import { adminOn, door } from "./infra/admin/door.ts"
import { admin } from "./infra/admin/index.ts"
import { problem } from "./infra/http/index.ts"
import { describeError, logLine } from "./infra/log.ts"
import { ScheduleDefinitionError } from "./infra/schedules/index.ts"
import { jobs } from "./jobs.ts"
import { billingRoutes } from "./slices/billing/index.ts"

export const app = new Hono<{ Bindings: Env }>()
  .get("/health", (c) => c.json({ ok: true }))
  // The example slice creates streams and outgoing POSTs: the admin token guards it too.
  .use("/billing/*", adminOn, door)
  .route("/billing", billingRoutes)
  .get("/admin/", (c) => c.redirect("/admin", 308))
  .route("/admin", admin(jobs))

app.notFound((c) => problem(c, 404, "Not found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`))
app.onError((error, c) => {
  if (error instanceof ScheduleDefinitionError) {
    return problem(c, 400, "Invalid input", error.message, { field: error.field })
  }
  if (error instanceof HTTPException) {
    // Middleware that built its own answer (the bearer door) keeps it; the rest (malformed JSON) become problems.
    if (error.res) return error.getResponse()
    const extra = error.status === 400 ? { field: "body" } : {}
    return problem(c, error.status, error.status === 400 ? "Invalid input" : "Error", error.message, extra)
  }
  logLine("error", "request failed", { path: new URL(c.req.url).pathname, error: describeError(error) })
  return problem(c, 500, "Internal error", "the request failed; see the Worker's logs")
})
