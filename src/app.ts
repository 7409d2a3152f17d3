// Hono over its TrieRouter alone, as slotwise's admin is (src/infra/admin/admin-app.ts): it keeps RegExpRouter out of the bundle.
import { HonoBase as Hono } from "hono/hono-base"
import { HTTPException } from "hono/http-exception"
import { TrieRouter } from "hono/router/trie-router"
import { type AdminOptions, admin, problem, requireAdmin } from "slotwise/admin"
import { describeError, ScheduleDefinitionError, streamsRequired } from "slotwise/portable"
import { billingRoutes } from "./slices/billing/index.ts"
import { statementRoutes } from "./slices/statements/index.ts"

/** The Worker's routes: health, the billing slice (behind admin access) and admin, over the jobs and consumers given. */
export function createApp({ jobs, consumers }: AdminOptions) {
  const app = new Hono<{ Bindings: Env }>({ router: new TrieRouter() })
    .get("/health", (c) => c.json({ ok: true }))
    // The example slice creates streams and outgoing POSTs: the admin token guards it too.
    .use("/billing/*", requireAdmin)
    // The slice's routes that write a schedule stream: 501 before anything is written where there are none (Node).
    .on("POST", ["/billing/trials", "/billing/usage"], streamsRequired)
    .on(["GET", "PUT", "DELETE"], "/billing/usage/:account/webhook", streamsRequired)
    .route("/billing", billingRoutes)
    // Statements are Workflow instances started by a schedule: Worker-only too.
    .use("/statements/*", requireAdmin, streamsRequired)
    .route("/statements", statementRoutes)
    .get("/admin/", (c) => c.redirect("/admin", 308))
    .route("/admin", admin({ jobs, consumers }))

  app.notFound((c) => problem(c, 404, "Not found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`))
  app.onError((error, c) => {
    if (error instanceof ScheduleDefinitionError) {
      return problem(c, 400, "Invalid input", error.message, { field: error.field })
    }
    if (error instanceof HTTPException) {
      // Middleware that built its own answer (the bearer-token check) keeps it; the rest (malformed JSON) become problems.
      if (error.res) return error.getResponse()
      const extra = error.status === 400 ? { field: "body" } : {}
      return problem(c, error.status, error.status === 400 ? "Invalid input" : "Error", error.message, extra)
    }
    const path = new URL(c.req.url).pathname
    console.error(JSON.stringify({ level: "error", message: "request failed", path, error: describeError(error) }))
    return problem(c, 500, "Internal error", "the request failed; see the Worker's logs")
  })
  return app
}
