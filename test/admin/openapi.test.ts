import { env } from "cloudflare:workers"
import { Hono } from "hono"
import { describe, expect, it } from "vitest"
import { openapiDocument } from "../../scripts/openapi/openapi-document.ts"
import { admin } from "../../src/infra/admin/index.ts"
import {
  eventsQuery,
  jobHistoryQuery,
  releaseQuery,
  schedulesQuery,
  streamHistoryQuery,
  streamsQuery,
} from "../../src/infra/admin/inputs.ts"
import { DOCUMENT } from "../../src/infra/admin/openapi.generated.js"
import { ADMIN_ROUTES, type AdminRoute, adminPath } from "../../src/infra/admin/routes.ts"
import { ADMIN_TOKEN, adminFetch, json } from "../support/admin.ts"
import { consumers } from "../support/consumers.ts"
import { workerJobs } from "../support/worker.ts"

describe("GET /admin/openapi.json", () => {
  it("names the path admin is mounted under as its server", async () => {
    expect((await json(await adminFetch("/admin/openapi.json"))).servers).toEqual([{ url: "/admin" }])
    const ops = new Hono<{ Bindings: Env }>().route("/ops", admin({ jobs: workerJobs, consumers }))
    const res = await ops.request("/ops/openapi.json", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }, env)
    expect(res.status).toBe(200)
    const doc = await json(res)
    expect(doc.servers).toEqual([{ url: "/ops" }])
    expect(Object.keys(doc.paths)).toContain("/streams/{stream}/schedules/{id}")
  })

  it("documents each route's path parameters and exactly the query parameters its validator reads", async () => {
    const doc = await json(await adminFetch("/admin/openapi.json"))
    const validated = {
      streams: streamsQuery,
      schedules: schedulesQuery,
      events: eventsQuery,
      releaseLease: releaseQuery,
      jobHistory: jobHistoryQuery,
      streamHistory: streamHistoryQuery,
    } as const
    for (const [name, route] of Object.entries(ADMIN_ROUTES)) {
      const path = route.path.replace(/:(\w+)/g, "{$1}")
      const operation = doc.paths[path]?.[route.method.toLowerCase()]
      expect(operation, `${route.method} ${path}`).toBeDefined()
      const parameters = (operation.parameters ?? []) as Array<{ name: string; in: string }>
      const named = (where: string) => parameters.filter((p) => p.in === where).map((p) => p.name)
      expect(named("path"), path).toEqual([...route.path.matchAll(/:(\w+)/g)].map(([, param]) => param))
      const schema = validated[name as keyof typeof validated]
      expect(named("query").sort(), `${name}'s query`).toEqual(schema ? Object.keys(schema.def.shape).sort() : [])
    }
  })
})

describe("the document's answers", () => {
  const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })

  it("declares each status with its schema: 200 as JSON, every refusal as problem+json of the Problem schema", async () => {
    const doc = await json(await adminFetch("/admin/openapi.json"))
    for (const route of Object.values(ADMIN_ROUTES) as AdminRoute[]) {
      const path = route.path.replace(/:(\w+)/g, "{$1}")
      const { responses } = doc.paths[path][route.method.toLowerCase()]
      const statuses = Object.keys(responses).map(Number)
      expect(statuses.sort(), path).toEqual([200, 401, 503, ...(route.statuses ?? [])].sort())
      const answer = responses[200].content["application/json"].schema.$ref as string
      expect(doc.components.schemas[answer.replace("#/components/schemas/", "")], `${path}'s answer`).toBeDefined()
      for (const status of statuses.filter((status) => status !== 200)) {
        expect(responses[status].content, `${route.method} ${path} ${status}`).toEqual({
          "application/problem+json": { schema: ref("Problem") },
        })
      }
      // A Worker has streams: no 501 in its document.
      expect(responses[501]).toBeUndefined()
    }
    expect(doc.components.schemas.Problem.required).toEqual(["type", "title", "status", "detail"])
  })

  it("is served as generated from the schemas the handlers use (npm run build:openapi)", () => {
    // Its version is the package's (test/node/openapi-document.test.ts reads package.json).
    expect(DOCUMENT).toEqual(openapiDocument(DOCUMENT.info.version))
  })
})

describe("adminPath", () => {
  it("encodes each parameter and leaves out query values not given", () => {
    expect(adminPath("schedule", { stream: "a b", id: "x/y" })).toBe("/streams/a%20b/schedules/x%2Fy")
    expect(adminPath("schedules", { stream: "s" }, { state: "failed", limit: 50, cursor: undefined })).toBe(
      "/streams/s/schedules?state=failed&limit=50",
    )
  })
})
