import { env, runInDurableObject } from "cloudflare:test"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { adminFetch, json } from "../support/admin.ts"

const STREAM = "props-admin"
/** The fields a refusal may name: every query, path and body field of the admin routes. */
const FIELDS = new Set([
  ...["limit", "cursor", "state", "before", "scheduleId", "stream", "id", "name", "body", "definition", "timing"],
  ...["consumer", "payload", "maxAttempts", "at", "after", "every", "cron", "timezone", "extra"],
])

/** Everything admin input could change: the D1 directory and leases, and the stream's rows and events. */
async function snapshot(): Promise<string> {
  const d1 = await env.DB.batch([
    env.DB.prepare("SELECT * FROM schedule_streams ORDER BY name"),
    env.DB.prepare("SELECT * FROM jobs_leases ORDER BY name"),
  ])
  const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(STREAM))
  const stream = await runInDurableObject(stub, (_, state) => [
    state.storage.sql.exec("SELECT * FROM schedules ORDER BY id").toArray(),
    ...["claims", "finished", "removed"].map((table) =>
      state.storage.sql.exec(`SELECT * FROM ${table} ORDER BY 1, 2`).toArray(),
    ),
  ])
  return JSON.stringify([d1.map((result) => result.results), stream])
}

/** A refused request answers 400 problem+json naming a known field (or 404 naming what is unknown), and writes nothing. */
async function expectRefusedCleanly(res: Response, before: string) {
  expect(res.headers.get("content-type")).toBe("application/problem+json")
  const body = await json(res)
  expect([400, 404, 409]).toContain(body.status)
  expect(body.status).toBe(res.status)
  if (res.status !== 409) expect(FIELDS).toContain(body.field)
  expect(await snapshot()).toBe(before)
}

const junk = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer({ min: -1_000, max: 1_000 }).map(String),
  fc.constantFrom("", " ", "0", "1.5", "NaN", "1e3", "%2F", "a b", "x".repeat(200), "-1", "500", "501"),
)
const queryValue = fc.option(junk, { nil: undefined })

describe("admin query strings, fuzzed", () => {
  beforeAll(async () => {
    const res = await adminFetch(`/admin/streams/${STREAM}/schedules/seed`, {
      method: "PUT",
      body: JSON.stringify({ consumer: "test.scripted", after: "1 day" }),
    })
    expect(res.status).toBe(200)
  })

  it("answer 200 or a 400 naming the field, never write, never fail", async () => {
    let refused = 0
    let answered = 0
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/admin/streams", `/admin/streams/${STREAM}/schedules`, `/admin/streams/${STREAM}/events`),
        fc.record({
          limit: queryValue,
          cursor: queryValue,
          state: queryValue,
          before: queryValue,
          scheduleId: queryValue,
        }),
        async (path, query) => {
          const params = new URLSearchParams(
            Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
          )
          const before = await snapshot()
          const res = await adminFetch(`${path}?${params}`)
          if (res.status === 200) {
            answered++
            expect(await snapshot()).toBe(before)
            return
          }
          refused++
          await expectRefusedCleanly(res, before)
        },
      ),
      { numRuns: 150 },
    )
    // Both branches ran: the arbitraries mix valid and invalid input.
    expect(answered).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
  })
})

/** Mostly absent, so that a fair share of bodies stay valid and both branches run. */
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: arb, weight: 1 })
const bodyField = {
  consumer: maybe(fc.oneof(fc.constantFrom("test.scripted", "billing.usage-report", "nope", ""), fc.integer())),
  payload: maybe(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ big: "x".repeat(70_000) }))),
  maxAttempts: maybe(fc.oneof(fc.integer({ min: -5, max: 1_005 }), fc.double(), fc.string())),
  at: maybe(fc.oneof(fc.constantFrom("2030-01-01T00:00:00Z", "yesterday", "", "2026-13-01"), fc.integer())),
  after: maybe(
    fc.oneof(fc.constantFrom("5 minutes", "1 ms", "-1 s", "forever", ""), fc.integer({ min: -10, max: 1e6 })),
  ),
  every: maybe(fc.oneof(fc.constantFrom("1 hour", "10 ms", "1 s", "abc"), fc.integer({ min: -10, max: 1e6 }))),
  cron: maybe(fc.constantFrom("0 9 * * *", "* * * * * *", "61 * * * *", "nope", "*/5 * * * *")),
  timezone: maybe(fc.constantFrom("UTC", "Europe/Paris", "Mars/Olympus", "")),
  id: maybe(fc.constantFrom("fuzzed", "other")),
  extra: maybe(fc.jsonValue({ maxDepth: 1 })),
}

describe("admin schedule bodies, fuzzed", () => {
  it("upsert or answer a 400 naming the field, and a refusal writes nothing", async () => {
    let refused = 0
    let upserted = 0
    await fc.assert(
      fc.asyncProperty(fc.record(bodyField), fc.constantFrom("fuzzed", "a b", "x".repeat(129)), async (fields, id) => {
        const given = Object.entries(fields).filter(([, value]) => value !== undefined)
        const body = { consumer: "test.scripted", every: "1 hour", ...Object.fromEntries(given) }
        const before = await snapshot()
        const res = await adminFetch(`/admin/streams/${STREAM}/schedules/${encodeURIComponent(id)}`, {
          method: "PUT",
          body: JSON.stringify(body),
        })
        if (res.status === 200) {
          upserted++
          expect((await json(res)).schedule.id).toBe(id)
          return
        }
        refused++
        await expectRefusedCleanly(res, before)
      }),
      { numRuns: 150 },
    )
    expect(upserted).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
  })
})
