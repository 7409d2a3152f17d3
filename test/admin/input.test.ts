import { beforeAll, describe, expect, it } from "vitest"
import { adminFetch } from "../support/admin.ts"
import { cronSearches } from "../support/cron-searches.ts"
import { expectProblem, objectIdOf, putSchedule, snapshot } from "./state.ts"

const STREAM = "inputs"
const ID = "known"
const FRESH = "inputs-fresh"
const JOB = "billing.roll-up-usage"

beforeAll(async () => {
  await putSchedule(STREAM, ID)
})

interface Case {
  method?: string
  path: string
  body?: string
  status: number
  field: string
}

/** Sends the requests and asserts each problem, and that D1, the streams and their storage are unchanged. */
async function refused(...cases: Case[]) {
  const before = await snapshot([STREAM])
  for (const { method = "GET", path, body, status, field } of cases) {
    const res = await adminFetch(path, { method, ...(body === undefined ? {} : { body }) })
    await expectProblem(res, status, field).catch((error: Error) => {
      throw new Error(`${method} ${path.slice(0, 120)}: ${error.message}`)
    })
  }
  expect(await snapshot([STREAM])).toEqual(before)
}

const BAD_NAMES = [
  ["a space", "a%20b"],
  ["200 characters", "a".repeat(200)],
  ["an encoded slash", "%2F"],
  ["an encoded slash inside", "a%2Fb"],
  ["a question mark", "a%3Fb"],
] as const

const VALID_BODY = JSON.stringify({ consumer: "test.scripted", every: "1 day" })

describe("unknown things are 404 problem+json naming what was not found", () => {
  it.each<Case>([
    { method: "POST", path: "/admin/jobs/nope/run", status: 404, field: "name" },
    { method: "DELETE", path: "/admin/leases/nope", status: 404, field: "name" },
    // A declared job that has never claimed a slot has no lease row either.
    { method: "DELETE", path: `/admin/leases/${JOB}`, status: 404, field: "name" },
    { path: "/admin/streams/ghost/schedules", status: 404, field: "stream" },
    { path: `/admin/streams/ghost/schedules/${ID}`, status: 404, field: "stream" },
    { path: "/admin/streams/ghost/events", status: 404, field: "stream" },
    { method: "POST", path: `/admin/streams/ghost/schedules/${ID}/cancel`, status: 404, field: "stream" },
    { method: "POST", path: `/admin/streams/ghost/schedules/${ID}/resume`, status: 404, field: "stream" },
    { method: "POST", path: `/admin/streams/ghost/schedules/${ID}/trigger`, status: 404, field: "stream" },
    { path: `/admin/streams/${STREAM}/schedules/nope`, status: 404, field: "id" },
    { method: "POST", path: `/admin/streams/${STREAM}/schedules/nope/cancel`, status: 404, field: "id" },
    { method: "POST", path: `/admin/streams/${STREAM}/schedules/nope/resume`, status: 404, field: "id" },
    { method: "POST", path: `/admin/streams/${STREAM}/schedules/nope/trigger`, status: 404, field: "id" },
  ])("$method $path", async (c) => {
    await refused(c)
    // An unknown stream is never woken, so never created.
    expect((await snapshot()).objects).not.toContain(objectIdOf("ghost"))
  })
})

describe("malformed names in the path are 400 naming the parameter", () => {
  const routes = (bad: string): Case[] => [
    { method: "POST", path: `/admin/jobs/${bad}/run`, status: 400, field: "name" },
    { method: "DELETE", path: `/admin/leases/${bad}`, status: 400, field: "name" },
    { path: `/admin/streams/${bad}/schedules`, status: 400, field: "stream" },
    { path: `/admin/streams/${bad}/events`, status: 400, field: "stream" },
    { path: `/admin/streams/${bad}/schedules/${ID}`, status: 400, field: "stream" },
    { path: `/admin/streams/${STREAM}/schedules/${bad}`, status: 400, field: "id" },
    { method: "PUT", path: `/admin/streams/${bad}/schedules/${ID}`, body: VALID_BODY, status: 400, field: "stream" },
    { method: "PUT", path: `/admin/streams/${STREAM}/schedules/${bad}`, body: VALID_BODY, status: 400, field: "id" },
    { method: "POST", path: `/admin/streams/${STREAM}/schedules/${bad}/cancel`, status: 400, field: "id" },
    { method: "POST", path: `/admin/streams/${STREAM}/schedules/${bad}/resume`, status: 400, field: "id" },
    { method: "POST", path: `/admin/streams/${STREAM}/schedules/${bad}/trigger`, status: 400, field: "id" },
  ]
  it.each(BAD_NAMES)("%s", async (_what, bad) => {
    await refused(...routes(bad))
  })

  it("refuses a job name the job rule forbids even where a stream name would pass", async () => {
    await refused(
      ...["Upper", "-dash-first", "a~b"].flatMap((bad): Case[] => [
        { method: "POST", path: `/admin/jobs/${bad}/run`, status: 400, field: "name" },
        { method: "DELETE", path: `/admin/leases/${bad}`, status: 400, field: "name" },
      ]),
    )
  })
})

describe("query parameters are 400 naming the parameter", () => {
  const lists = ["/admin/streams", `/admin/streams/${STREAM}/schedules`, `/admin/streams/${STREAM}/events`]

  it.each(["0", "501", "abc", "1.5", "-1", "", "1e3", "5&limit=6"])("limit=%s", async (limit) => {
    await refused(...lists.map((path) => ({ path: `${path}?limit=${limit}`, status: 400, field: "limit" })))
  })

  it.each(["a%20b", "a".repeat(200), "%2F", ".", "..", "%2e%2e"])("cursor=%s", async (cursor) => {
    await refused(
      ...lists.slice(0, 2).map((path) => ({ path: `${path}?cursor=${cursor}`, status: 400, field: "cursor" })),
    )
  })

  it.each(["bogus", "SCHEDULED", "", "scheduled,failed"])("state=%s", async (state) => {
    await refused({ path: `/admin/streams/${STREAM}/schedules?state=${state}`, status: 400, field: "state" })
  })

  it.each(["-1", "0", "abc", "1.5", ""])("before=%s", async (before) => {
    await refused({ path: `/admin/streams/${STREAM}/events?before=${before}`, status: 400, field: "before" })
  })

  it.each(["a%20b", "a".repeat(200), ".", ".."])("scheduleId=%s", async (scheduleId) => {
    await refused({
      path: `/admin/streams/${STREAM}/events?scheduleId=${scheduleId}`,
      status: 400,
      field: "scheduleId",
    })
  })

  it("validates the query before looking the stream up", async () => {
    await refused({ path: "/admin/streams/ghost/schedules?limit=0", status: 400, field: "limit" })
  })
})

describe("PUT bodies are 400 naming the field, and write nothing", () => {
  const def = (extra: Record<string, unknown>) => JSON.stringify({ consumer: "test.scripted", ...extra })
  const soon = Date.now() + 3_600_000
  const bodies: Array<[string, string, string]> = [
    ["malformed JSON", "{bad", "body"],
    ["an empty body", "", "body"],
    ["a JSON array", "[]", "body"],
    ["JSON null", "null", "body"],
    ["a JSON string", '"every day"', "body"],
    ["a number as consumer", JSON.stringify({ consumer: 5, every: "1 day" }), "consumer"],
    ["a missing consumer", JSON.stringify({ every: "1 day" }), "consumer"],
    ["an unknown consumer", JSON.stringify({ consumer: "nope", every: "1 day" }), "consumer"],
    ["a consumer of 200 characters", JSON.stringify({ consumer: "c".repeat(200), every: "1 day" }), "consumer"],
    ["an unknown field", def({ every: "1 day", foo: 1 }), "foo"],
    ["a misspelt option", def({ every: "1 day", maxAttempt: 3 }), "maxAttempt"],
    ["maxAttempts as a string", def({ every: "1 day", maxAttempts: "3" }), "maxAttempts"],
    ["maxAttempts 0", def({ every: "1 day", maxAttempts: 0 }), "maxAttempts"],
    ["maxAttempts 1.5", def({ every: "1 day", maxAttempts: 1.5 }), "maxAttempts"],
    ["every as a boolean", def({ every: true }), "every"],
    ["every unparsable", def({ every: "soon" }), "every"],
    ["every under a second", def({ every: 10 }), "every"],
    ["both at and every", def({ at: soon, every: "1 day" }), "timing"],
    ["no timing", def({}), "timing"],
    ["at without an offset", def({ at: "2030-01-01T00:00" }), "at"],
    ["at on February 30th", def({ at: "2030-02-30T09:00Z" }), "at"],
    ["at at hour 24", def({ at: "2030-01-01T24:00:00Z" }), "at"],
    ["at more than 10 years ahead", def({ at: Date.now() + 11 * 366 * 86_400_000 }), "at"],
    ["a bad cron", def({ cron: "61 * * * *" }), "cron"],
    ["a six-field cron", def({ cron: "0 * * * * *" }), "cron"],
    ["a cron that is a number", def({ cron: 5 }), "cron"],
    ["a bad timezone", def({ cron: "0 9 * * *", timezone: "Mars/Olympus_Mons" }), "timezone"],
    ["a timezone without cron", def({ every: "1 day", timezone: "UTC" }), "timezone"],
    ["a fixed offset as timezone", def({ cron: "0 9 * * *", timezone: "+01:00" }), "timezone"],
    ["a cron that never fires", def({ cron: "0 0 31 2 *" }), "cron"],
    ["a body id unlike the path's", def({ id: "other", every: "1 day" }), "id"],
    ["a payload over 64 KiB", def({ every: "1 day", payload: "x".repeat(70 * 1024) }), "payload"],
    // 5 KB of JSON that once overflowed the stack of the body's validation (a 500).
    [
      "a payload nested 2,500 deep",
      `{"consumer":"test.scripted","every":"1 day","payload":${"[".repeat(2_500)}${"]".repeat(2_500)}}`,
      "payload",
    ],
    [
      "a payload nested 65 deep",
      `{"consumer":"test.scripted","every":"1 day","payload":{"a":${"[".repeat(64)}${"]".repeat(64)}}}`,
      "payload",
    ],
    ["a body over 80 KiB", def({ every: "1 day", payload: "x".repeat(90 * 1024) }), "body"],
    ["a body of 1 MiB", def({ every: "1 day", payload: "x".repeat(1024 * 1024) }), "body"],
  ]

  it.each(bodies)("%s, replacing an existing schedule", async (_what, body, field) => {
    await refused({ method: "PUT", path: `/admin/streams/${STREAM}/schedules/${ID}`, body, status: 400, field })
  })

  it.each(bodies.map((row, i) => [...row, `${FRESH}-${i}`] as const))(
    "%s, creating a new stream (no object is woken)",
    async (_what, body, field, fresh) => {
      await refused({ method: "PUT", path: `/admin/streams/${fresh}/schedules/${ID}`, body, status: 400, field })
      expect((await snapshot()).objects).not.toContain(objectIdOf(fresh))
    },
  )

  it("a body that is not JSON is 400 saying the body must be JSON, whatever it holds", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await adminFetch(`/admin/streams/${STREAM}/schedules/${ID}`, {
        method: "PUT",
        headers: { "content-type": contentType },
        body: VALID_BODY,
      })
      const problem = await expectProblem(res, 400, "body")
      expect(problem.detail).toMatch(/must be JSON/)
    }
  })

  it("maxAttempts null is accepted as unset, as the client accepts it (one rule)", async () => {
    const res = await adminFetch(`/admin/streams/${STREAM}/schedules/${ID}`, {
      method: "PUT",
      body: def({ every: "1 day", maxAttempts: null }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()) as unknown).toMatchObject({ schedule: { maxAttempts: null } })
  })

  it("a body id equal to the path's is accepted", async () => {
    const res = await adminFetch(`/admin/streams/${STREAM}/schedules/${ID}`, {
      method: "PUT",
      body: def({ id: ID, every: "1 day" }),
    })
    expect(res.status).toBe(200)
  })
})

describe("a PUT validates its definition once", () => {
  // Its day pattern, "0 0 1 * *", is no pattern the test sets: each croner call on it is the search.
  const CRON = "15 9 1 * *"
  const def = (extra: Record<string, unknown>) => JSON.stringify({ consumer: "test.scripted", ...extra })

  it("searches the cron's days once, creating a stream or replacing a schedule", async () => {
    const fresh = `${FRESH}-once`
    for (const stream of [fresh, fresh, STREAM]) {
      const searches = await cronSearches(CRON, async () => {
        const res = await adminFetch(`/admin/streams/${stream}/schedules/cron-once`, {
          method: "PUT",
          body: def({ cron: CRON, timezone: "Europe/Berlin" }),
        })
        expect(res.status, await res.text()).toBe(200)
      })
      expect(searches, stream).toBe(1)
    }
  })

  it("searches a cron that never fires once, and wakes no object", async () => {
    const fresh = `${FRESH}-never`
    const searches = await cronSearches("0 0 31 2 *", async () => {
      const res = await adminFetch(`/admin/streams/${fresh}/schedules/${ID}`, {
        method: "PUT",
        body: def({ cron: "0 0 31 2 *" }),
      })
      await expectProblem(res, 400, "cron")
    })
    expect(searches).toBe(1)
    expect((await snapshot()).objects).not.toContain(objectIdOf(fresh))
  })
})

describe("a refusal's detail says what the field must be", () => {
  it.each([
    ["/admin/streams?limit=0", "limit: must be >= 1"],
    ["/admin/streams?limit=5000", "limit: must be <= 500"],
    ["/admin/streams?limit=1.5", "limit: must be of type int"],
    [
      `/admin/streams/${STREAM}/schedules?state=sleeping`,
      "state: must be one of scheduled, completed, cancelled, failed",
    ],
    [`/admin/jobs/${JOB}/history?days=31`, "days: must be <= 30"],
  ])("GET %s: %s", async (path, detail) => {
    const res = await adminFetch(path)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ detail })
  })

  it("a PUT body with a field the definition does not have names it", async () => {
    const res = await adminFetch(`/admin/streams/${STREAM}/schedules/${ID}`, {
      method: "PUT",
      body: JSON.stringify({ consumer: "test.scripted", every: "1 day", colour: "red" }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: "colour", detail: "colour: is not a known field" })
  })
})
