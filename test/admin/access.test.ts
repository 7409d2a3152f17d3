import { env } from "cloudflare:workers"
import { beforeAll, describe, expect, it } from "vitest"
import { NONCE_MARK } from "../../src/infra/admin/browser-only.ts"
import { dashboardPage } from "../../src/infra/admin/dashboard/route.ts"
import { STYLE } from "../../src/infra/admin/dashboard/style.ts"
import { PAGE } from "../../src/infra/admin/dashboard-script.generated.js"
import { ADMIN_TOKEN, adminFetch, json } from "../support/admin.ts"
import { app } from "../support/worker.ts"
import { expectProblem, objectIdOf, objectIds, putSchedule, snapshot, streamStorage } from "./state.ts"

interface Route {
  method: string
  /** OpenAPI form, relative to /admin: /streams/{stream}/schedules/{id} */
  path: string
}

/** Every route the contract (/tmp/brief/admin-api.md) names; the OpenAPI document must list each. */
const EXPECTED: readonly string[] = [
  "GET /health",
  "GET /jobs",
  "POST /jobs/{name}/run",
  "GET /leases",
  "DELETE /leases/{name}",
  "GET /streams",
  "GET /streams/{stream}/schedules",
  "GET /streams/{stream}/schedules/{id}",
  "PUT /streams/{stream}/schedules/{id}",
  "POST /streams/{stream}/schedules/{id}/cancel",
  "POST /streams/{stream}/schedules/{id}/resume",
  "POST /streams/{stream}/schedules/{id}/trigger",
  "GET /streams/{stream}/events",
  "GET /streams/{stream}/summary",
]

const STREAM = "door-stream"
const SCHEDULE = "door-schedule"
const HELD_JOB = "billing.close-expired-trials"
const FREE_JOB = "billing.roll-up-usage"
const LONG_AGO = Date.UTC(2020, 0, 1)

/**
 * Real path parameters, so that a request the door wrongly let through would change something:
 * a run would claim FREE_JOB's slot, a release would free HELD_JOB, cancel and trigger would move
 * the schedule.
 */
const fill = (route: Route) =>
  `/admin${route.path}`
    .replace("{name}", route.path.startsWith("/leases") ? HELD_JOB : FREE_JOB)
    .replace("{stream}", STREAM)
    .replace("{id}", SCHEDULE)

const bodyOf = (route: Route) =>
  route.method === "PUT" ? JSON.stringify({ ...putBody, payload: "changed" }) : undefined
const putBody = { consumer: "test.scripted", every: "1 day" }

let documented: Route[] = []

beforeAll(async () => {
  const res = await adminFetch("/admin/openapi.json")
  expect(res.status).toBe(200)
  const doc = await json(res)
  documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })),
  )
  await putSchedule(STREAM, SCHEDULE, putBody)
  await env.DB.batch([
    env.DB.prepare("INSERT INTO jobs_leases (name, last_slot, lease_until, holder) VALUES (?, ?, ?, ?)").bind(
      HELD_JOB,
      LONG_AGO,
      Date.now() + 3_600_000,
      "door-holder",
    ),
    env.DB.prepare("INSERT INTO jobs_leases (name, last_slot, lease_until, holder) VALUES (?, ?, NULL, NULL)").bind(
      FREE_JOB,
      LONG_AGO,
    ),
  ])
})

/** Every admin route: the documented ones, the document itself, and what the door must also shut. */
const everyRoute = (): Route[] => [...documented, { method: "GET", path: "/openapi.json" }]
const label = (route: Route) => `${route.method} ${route.path}`

describe("the admin route list", () => {
  it("documents every route the contract names in /admin/openapi.json", () => {
    expect(documented.map(label).sort()).toEqual(expect.arrayContaining([...EXPECTED].sort()))
    expect(documented.length).toBeGreaterThanOrEqual(EXPECTED.length)
  })

  it("documents every route the app serves under /admin, so a new route is covered by these tests", () => {
    const served = new Set(
      app.routes
        .filter((route) => route.method !== "ALL" && route.path.startsWith("/admin/"))
        .map((route) => `${route.method} ${route.path.slice("/admin".length).replace(/:(\w+)/g, "{$1}")}`),
    )
    served.delete("GET /openapi.json")
    // `/admin/` only redirects to the dashboard shell, which is tested below.
    served.delete("GET /")
    expect([...served].sort()).toEqual(documented.map(label).sort())
  })
})

describe("the door", () => {
  const variants: Array<{ what: string; headers: Record<string, string>; env?: Partial<Env>; status: 401 | 503 }> = [
    { what: "no Authorization header", headers: {}, status: 401 },
    { what: "a wrong token", headers: { authorization: "Bearer not-the-admin-token" }, status: 401 },
    { what: "a wrong token of the right length", headers: { authorization: `Bearer ${"x".repeat(16)}` }, status: 401 },
    { what: "the token with a suffix", headers: { authorization: `Bearer ${ADMIN_TOKEN}x` }, status: 401 },
    { what: "the token without a scheme", headers: { authorization: ADMIN_TOKEN }, status: 401 },
    { what: "Basic credentials", headers: { authorization: `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}` }, status: 401 },
    { what: "a bare Bearer", headers: { authorization: "Bearer" }, status: 401 },
    { what: "Bearer and a space", headers: { authorization: "Bearer " }, status: 401 },
    { what: "a token with a space", headers: { authorization: `Bearer ${ADMIN_TOKEN} ${ADMIN_TOKEN}` }, status: 401 },
    {
      what: "no token configured (the right header)",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      env: { ADMIN_TOKEN: undefined },
      status: 503,
    },
    { what: "no token configured (no header)", headers: {}, env: { ADMIN_TOKEN: undefined }, status: 503 },
    { what: "an empty token configured (no header)", headers: {}, env: { ADMIN_TOKEN: "" }, status: 503 },
    {
      what: "an empty token configured and an empty bearer",
      headers: { authorization: "Bearer " },
      env: { ADMIN_TOKEN: "" },
      status: 503,
    },
  ]

  it("refuses every route, for every method, with 401 (WWW-Authenticate) or 503 problem+json, and writes nothing", async () => {
    expect(documented.length).toBeGreaterThan(0)
    const before = await snapshot([STREAM])
    for (const route of everyRoute()) {
      for (const variant of variants) {
        const res = await adminFetch(fill(route), {
          method: route.method,
          token: null,
          headers: variant.headers,
          body: bodyOf(route),
          ...(variant.env ? { env: variant.env } : {}),
        })
        const context = `${label(route)} with ${variant.what}`
        const body = await expectProblem(res.clone(), variant.status).catch((error: Error) => {
          throw new Error(`${context}: ${error.message}`)
        })
        expect(JSON.stringify(body), context).not.toContain(ADMIN_TOKEN)
        if (variant.status === 401) {
          expect(res.headers.get("www-authenticate"), context).toMatch(/^Bearer\b/)
        } else {
          expect(body.title, context).toBe("Admin is off")
        }
      }
    }
    expect(await snapshot([STREAM])).toEqual(before)
  })

  it.each([
    ["a dollar and an exclamation mark", "pa$$word!"],
    ["a hash", "token#1"],
    ["an at sign", "admin@example"],
    ["a colon", "user:secret"],
    ["a space", "correct horse battery staple"],
    ["padding in the middle", "abc=def"],
  ])("answers 503 naming the token rule, even to the right token, when ADMIN_TOKEN has %s", async (_what, token) => {
    const before = await snapshot([STREAM])
    for (const route of everyRoute()) {
      const res = await adminFetch(fill(route), {
        method: route.method,
        token,
        body: bodyOf(route),
        env: { ADMIN_TOKEN: token },
      })
      const body = await expectProblem(res, 503)
      expect(body.title, label(route)).toBe("Admin token unusable")
      expect(body.detail).toMatch(/ADMIN_TOKEN must be an RFC 6750 b64token/)
      expect(JSON.stringify(body)).not.toContain(token)
    }
    expect(await snapshot([STREAM])).toEqual(before)
    // The dashboard's shell still loads, so that it can show the problem.
    expect((await adminFetch("/admin", { token: null, env: { ADMIN_TOKEN: token } })).status).toBe(200)
  })

  it.each(["abc+/~._-XYZ019", "c2VjcmV0==", "a"])(
    "lets a token of the rule's whole alphabet through: %s",
    async (token) => {
      expect((await adminFetch("/admin/jobs", { token, env: { ADMIN_TOKEN: token } })).status).toBe(200)
      expect((await adminFetch("/admin/jobs", { token: `${token}x`, env: { ADMIN_TOKEN: token } })).status).toBe(401)
    },
  )

  it("shuts unknown paths and methods too: 401 without a token, 503 with none configured", async () => {
    const odd: Route[] = [
      { method: "GET", path: "/whatever" },
      { method: "GET", path: "/streams/door-stream/nothing-here" },
      { method: "PATCH", path: "/jobs" },
      { method: "PUT", path: "/jobs" },
      { method: "DELETE", path: "/streams" },
      { method: "POST", path: "/leases" },
      { method: "OPTIONS", path: "/jobs" },
    ]
    for (const route of odd) {
      const res = await adminFetch(`/admin${route.path}`, { method: route.method, token: null })
      await expectProblem(res.clone(), 401)
      expect(res.headers.get("www-authenticate"), label(route)).toMatch(/^Bearer\b/)
      await expectProblem(
        await adminFetch(`/admin${route.path}`, { method: route.method, env: { ADMIN_TOKEN: undefined } }),
        503,
      )
    }
    // Past the door, an unknown route is a plain 404 problem.
    await expectProblem(await adminFetch("/admin/whatever"), 404)
    await expectProblem(await adminFetch("/admin/jobs", { method: "PATCH" }), 404)
  })

  it("marks every answer, 200 or problem, Cache-Control: no-store", async () => {
    const answers: Array<[string, Response]> = []
    for (const route of everyRoute().filter((route) => route.method === "GET")) {
      answers.push([label(route), await adminFetch(fill(route))])
      answers.push([`${label(route)} without a token`, await adminFetch(fill(route), { token: null })])
      const off = await adminFetch(fill(route), { env: { ADMIN_TOKEN: undefined } })
      answers.push([`${label(route)} with admin off`, off])
    }
    answers.push(["a 400", await adminFetch("/admin/streams?limit=0")])
    answers.push(["a 404", await adminFetch("/admin/streams/door-ghost/schedules")])
    answers.push(["an unknown path", await adminFetch("/admin/whatever")])
    answers.push(["the dashboard", await adminFetch("/admin", { token: null })])
    expect(new Set(answers.map(([, res]) => res.status))).toEqual(new Set([200, 400, 401, 404, 503]))
    for (const [what, res] of answers) expect(res.headers.get("cache-control"), what).toBe("no-store")
  })

  it("lets the right token through on every GET", async () => {
    for (const route of everyRoute().filter((route) => route.method === "GET")) {
      const res = await adminFetch(fill(route))
      expect(res.status, label(route)).toBe(200)
    }
  })
})

describe("reading", () => {
  it("no GET changes D1, the stream's storage or the set of streams, and a GET never creates a stream", async () => {
    const ghost = "door-ghost"
    const before = await snapshot([STREAM])
    expect(before.objects).not.toContain(objectIdOf(ghost))
    const gets = everyRoute().filter((route) => route.method === "GET")
    const paths = [
      ...gets.map(fill),
      "/admin/streams?limit=1",
      "/admin/streams?limit=500&cursor=a",
      `/admin/streams/${STREAM}/schedules?state=scheduled&limit=1`,
      `/admin/streams/${STREAM}/schedules?state=cancelled`,
      `/admin/streams/${STREAM}/schedules?cursor=${SCHEDULE}`,
      `/admin/streams/${STREAM}/events?limit=1&before=1000&scheduleId=${SCHEDULE}`,
      `/admin/streams/${STREAM}/schedules/not-there`,
      ...gets.map(fill).map((path) => path.replace(STREAM, ghost)),
      "/admin/whatever",
      "/admin",
    ]
    const statuses: Record<string, number> = {}
    for (const path of paths) statuses[path] = (await adminFetch(path)).status
    for (const path of paths.filter((path) => path.includes(ghost))) {
      if (path.includes("/streams/")) expect(statuses[path], path).toBe(404)
    }
    expect(statuses[`/admin/streams/${STREAM}/schedules/not-there`]).toBe(404)
    const after = await snapshot([STREAM])
    expect(after).toEqual(before)
    expect(after.objects).not.toContain(objectIdOf(ghost))
    expect(after.directory.map((row) => row.name)).not.toContain(ghost)
    // The stream still answers as before: its schedule is untouched.
    expect((await streamStorage(STREAM)).schedules).toHaveLength(1)
  })

  it("the GETs listed are every GET route (so the check above covers new ones)", () => {
    const gets = everyRoute()
      .filter((route) => route.method === "GET")
      .map(label)
    expect(gets).toEqual(expect.arrayContaining(EXPECTED.filter((route) => route.startsWith("GET "))))
  })
})

/** GET /admin is the dashboard's static shell (src/infra/admin/dashboard): it asks for the token itself. */
describe("GET /admin, the dashboard page", () => {
  const SECRET = "dashboard-secret-token-0123456789"

  it("answers 200 text/html without a token, holding no token and setting no cookie", async () => {
    for (const token of [null, SECRET, "wrong"]) {
      const res = await adminFetch("/admin", { token, env: { ADMIN_TOKEN: SECRET } })
      const html = await res.text()
      expect(res.status, String(token)).toBe(200)
      expect(res.headers.get("content-type")).toMatch(/^text\/html\b/)
      expect(res.headers.get("set-cookie")).toBeNull()
      expect(html).not.toContain(SECRET)
      expect(html).not.toContain(ADMIN_TOKEN)
      expect(html).toMatch(/<html/i)
    }
  })

  it("lets exactly its own inline style and script past the CSP, both carried verbatim", async () => {
    const res = await adminFetch("/admin", { token: null, env: { ADMIN_TOKEN: SECRET } })
    const html = await res.text()
    const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1]
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true)
    expect(html).toContain(`<style nonce="${nonce}">${STYLE}</style>`)
    expect(html).toContain(`<script nonce="${nonce}">`)
    expect(html.endsWith("</script></body></html>")).toBe(true)
    expect(html).toBe(PAGE.replaceAll(NONCE_MARK, nonce ?? ""))
    expect(html.match(/<(script|style)\b/g)).toEqual(["<style", "<script"])
  })

  it("escapes the nonce it is given, so that no value breaks out of an attribute", async () => {
    const html = String(await dashboardPage(`x"><img src=x onerror=alert(1)>'&`))
    expect(html).toContain(`<script nonce="x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;">`)
    expect(html).not.toContain("<img")
  })

  it("answers 503 problem+json when no token is configured", async () => {
    for (const configured of [undefined, ""]) {
      const res = await adminFetch("/admin", { token: null, env: { ADMIN_TOKEN: configured } })
      expect(res.headers.get("set-cookie")).toBeNull()
      await expectProblem(res, 503)
    }
  })

  it("is where /admin/ redirects", async () => {
    const res = await adminFetch("/admin/", { token: null })
    expect(res.status).toBe(308)
    expect(new URL(res.headers.get("location") ?? "", "http://x").pathname).toBe("/admin")
  })

  it("opens nothing else: the API behind it still wants the token", async () => {
    await expectProblem(await adminFetch("/admin/jobs", { token: null, env: { ADMIN_TOKEN: SECRET } }), 401)
  })
})

describe("objects", () => {
  it("the door's test stream exists, so the checks above compare real storage", async () => {
    expect(await objectIds()).toContain(objectIdOf(STREAM))
  })
})
