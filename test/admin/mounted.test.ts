import { env } from "cloudflare:test"
import { Hono } from "hono"
import { describe, expect, it } from "vitest"
import { admin } from "../../src/infra/admin/index.ts"
import { consumers } from "../support/consumers.ts"
import { failingD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"
import { workerJobs } from "../support/worker.ts"
import { expectProblem } from "./state.ts"

/**
 * admin() as an adopter mounts it, as README shows: in a Hono app of their own with no onError (the
 * example app's own handler is not there), and as the whole app. Every error admin raises itself is
 * its own problem+json answer.
 */
const logs = captureLogs()

const mountings = {
  "routed under /admin in an app without onError": new Hono<{ Bindings: Env }>().route(
    "/admin",
    admin({ jobs: workerJobs, consumers }),
  ),
  "as the whole app, under /admin": new Hono<{ Bindings: Env }>()
    .basePath("/admin")
    .route("/", admin({ jobs: workerJobs, consumers })),
}

const send = (app: Hono<{ Bindings: Env }>, path: string, body: string) =>
  app.request(
    path,
    {
      method: "PUT",
      body,
      headers: { authorization: "Bearer test-admin-token", "content-type": "application/json" },
    },
    env,
  )

describe.each(Object.entries(mountings))("admin() mounted %s", (_, app) => {
  it("answers a schedule definition the stream would refuse as a 400 problem naming the field", async () => {
    // An unknown timezone passes the route's schema and is refused by the definition check (ScheduleDefinitionError).
    const body = JSON.stringify({ consumer: "test.scripted", cron: "0 9 * * *", timezone: "Mars/Olympus" })
    const problem = await expectProblem(await send(app, "/admin/streams/mounted/schedules/a", body), 400, "timezone")
    expect(problem.detail).toMatch(/timezone/)
  })

  it("answers malformed JSON as a 400 problem naming the body", async () => {
    const problem = await expectProblem(await send(app, "/admin/streams/mounted/schedules/a", "{not json"), 400, "body")
    expect(problem.detail).toMatch(/JSON/i)
  })

  it("answers a failure of its own (D1 down) as a 500 problem and logs it once, naming the path", async () => {
    const { db } = failingD1(env.DB)
    const res = await app.request(
      "/admin/leases",
      { headers: { authorization: "Bearer test-admin-token" } },
      { ...env, DB: db },
    )
    const problem = await expectProblem(res, 500)
    expect(problem.detail).not.toMatch(/simulated/)
    expect(logs.of("admin request failed")).toEqual([
      expect.objectContaining({
        level: "error",
        path: "/admin/leases",
        error: expect.stringMatching(/simulated outage/),
      }),
    ])
  })

  it("keeps the bearer check's own 401 problem", async () => {
    const res = await app.request("/admin/leases", { headers: { authorization: "Bearer wrong" } }, env)
    await expectProblem(res, 401)
  })
})
