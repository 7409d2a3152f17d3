import { listDurableObjectIds } from "cloudflare:test"
import { env, exports } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { closeExpiredTrials, rollUpUsage } from "../../src/slices/billing/index.ts"
import { recordUsage, startTrial, trialById, usageTotalOf } from "../../src/slices/billing/queries.ts"
import { ADMIN_TOKEN, adminFetch } from "../support/admin.ts"

const db = database(env.DB)
const DAY = 86_400_000
const day = (d: number) => new Date(Date.UTC(2026, 10, d, 3, 0))

describe("billing.close-expired-trials", () => {
  it("closes trials due as of the slot, and a missed day heals on the next slot", async () => {
    const dueDay1 = await startTrial(db, "acme", day(1).getTime() - 1)
    const dueDay2 = await startTrial(db, "globex", day(2).getTime())
    const dueLater = await startTrial(db, "initech", day(3).getTime() + 1)
    // The day-1 slot is missed (outage); the day-2 slot closes both due trials.
    expect((await Jobs.run(closeExpiredTrials, day(2), { env })).status).toBe("ran")
    expect((await trialById(db, dueDay1.id))?.closedAt).toBe(day(2).getTime())
    expect((await trialById(db, dueDay2.id))?.closedAt).toBe(day(2).getTime())
    expect((await trialById(db, dueLater.id))?.closedAt).toBeNull()
    await Jobs.run(closeExpiredTrials, new Date(day(3).getTime() + DAY), { env })
    expect((await trialById(db, dueLater.id))?.closedAt).toBe(day(4).getTime())
  })
})

describe("billing.roll-up-usage", () => {
  it("adds pending usage up to the slot once, even when replayed", async () => {
    const slot = new Date(Date.UTC(2026, 10, 30, 12, 0))
    await recordUsage(db, "acme", 3, slot.getTime() - 10)
    await recordUsage(db, "acme", 4, slot.getTime())
    await recordUsage(db, "acme", 100, slot.getTime() + 1)
    await Jobs.run(rollUpUsage, slot, { env })
    expect(await usageTotalOf(db, "acme")).toEqual({ account: "acme", quantity: 7, throughSlot: slot.getTime() })
    // A non-exclusive replay of the same slot finds nothing pending.
    await Jobs.run({ ...rollUpUsage, exclusive: false }, slot, { env })
    expect((await usageTotalOf(db, "acme"))?.quantity).toBe(7)
    const next = new Date(slot.getTime() + 60_000)
    await Jobs.run(rollUpUsage, next, { env })
    expect(await usageTotalOf(db, "acme")).toEqual({ account: "acme", quantity: 107, throughSlot: next.getTime() })
  })

  it("serves the slice's routes with problem+json on bad input", async () => {
    const bad = await exports.default.fetch("http://x/billing/usage", {
      method: "POST",
      body: JSON.stringify({ account: "acme", quantity: -1 }),
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(bad.status).toBe(400)
    expect(bad.headers.get("content-type")).toBe("application/problem+json")
    expect(await bad.json()).toMatchObject({ status: 400, detail: expect.stringMatching(/^quantity: /) })
    const ok = await exports.default.fetch("http://x/billing/usage", {
      method: "POST",
      body: JSON.stringify({ account: "route-acme", quantity: 2 }),
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(ok.status).toBe(201)
  })

  it.each(["2030-02-30T09:00:00Z", "2030-02-29T09:00:00Z", "2030-04-31T09:00:00Z", "2030-01-01T24:00:00Z"])(
    "refuses a trial due at the impossible %s, naming dueAt",
    async (dueAt) => {
      const res = await exports.default.fetch("http://x/billing/trials", {
        method: "POST",
        body: JSON.stringify({ account: "impossible-date", dueAt }),
        headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      })
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ field: "dueAt" })
      expect(await env.DB.prepare("SELECT * FROM trials WHERE account = 'impossible-date'").first()).toBeNull()
    },
  )

  it.each([".", ".."])("refuses the account %j, which no admin route could reach, naming account", async (name) => {
    const res = await exports.default.fetch("http://x/billing/usage", {
      method: "POST",
      body: JSON.stringify({ account: name, quantity: 1 }),
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ field: "account" })
    expect(await env.DB.prepare("SELECT * FROM usage_events WHERE account = ?").bind(name).first()).toBeNull()
  })
})

describe("the billing routes are behind the admin door", () => {
  const ACCOUNT = "door-billing"
  const routes = [
    { method: "POST", path: "/billing/trials", body: { account: ACCOUNT, dueAt: "2100-02-01T00:00:00Z" } },
    { method: "POST", path: "/billing/usage", body: { account: ACCOUNT, quantity: 1 } },
    { method: "PUT", path: `/billing/usage/${ACCOUNT}/webhook`, body: { url: "https://hooks.example.com/usage" } },
    { method: "GET", path: `/billing/usage/${ACCOUNT}/webhook` },
    { method: "DELETE", path: `/billing/usage/${ACCOUNT}/webhook` },
    { method: "GET", path: `/billing/usage/${ACCOUNT}` },
    { method: "GET", path: "/billing/nothing-here" },
  ]
  const written = async () => ({
    rows: (
      await env.DB.batch([
        env.DB.prepare("SELECT * FROM trials WHERE account = ?").bind(ACCOUNT),
        env.DB.prepare("SELECT * FROM usage_events WHERE account = ?").bind(ACCOUNT),
        env.DB.prepare("SELECT * FROM schedule_streams WHERE name = ?").bind(ACCOUNT),
        env.DB.prepare("SELECT * FROM usage_webhooks WHERE account = ?").bind(ACCOUNT),
      ])
    ).map((result) => result.results),
    objects: (await listDurableObjectIds(env.SCHEDULES)).length,
  })

  it.each([
    { what: "no token", token: null, status: 401 },
    { what: "a wrong token", token: "not-the-admin-token", status: 401 },
    { what: "no ADMIN_TOKEN configured", token: ADMIN_TOKEN, env: { ADMIN_TOKEN: undefined }, status: 503 },
  ])("refuses every billing route with $what ($status), writing nothing", async ({ token, env: overrides, status }) => {
    const before = await written()
    for (const { method, path, body } of routes) {
      const res = await adminFetch(path, {
        method,
        token,
        ...(body ? { body: JSON.stringify(body) } : {}),
        ...(overrides ? { env: overrides } : {}),
      })
      expect(res.status, `${method} ${path}`).toBe(status)
      expect(res.headers.get("content-type")).toBe("application/problem+json")
    }
    expect(await written()).toEqual(before)
  })

  it("lets the admin token through", async () => {
    const res = await adminFetch("/billing/usage", {
      method: "POST",
      body: JSON.stringify({ account: ACCOUNT, quantity: 2 }),
    })
    expect(res.status).toBe(201)
  })
})
