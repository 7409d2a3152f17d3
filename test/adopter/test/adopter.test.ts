import {
  applyD1Migrations,
  createExecutionContext,
  createScheduledController,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test"
import { env, exports } from "cloudflare:workers"
import { Schedules } from "slotwise"
import { beforeAll, describe, expect, it } from "vitest"
import { consumers } from "../src/consumers.ts"
import worker from "../src/index.ts"

const SLOT = Date.UTC(2030, 0, 7, 3, 0)

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
})

async function heartbeat(scheduledTime: number) {
  const ctx = createExecutionContext()
  await worker.scheduled(createScheduledController({ scheduledTime, cron: "* * * * *" }), env, ctx)
  await waitOnExecutionContext(ctx)
}

describe("a Worker that adopted slotwise from its package", () => {
  it("runs its exclusive job once per slot, however many heartbeats fire it", async () => {
    await heartbeat(SLOT + 1_000)
    await heartbeat(SLOT + 30_000)
    await heartbeat(SLOT + 60_000)
    const { results } = await env.DB.prepare("SELECT slot FROM reports ORDER BY slot").all<{ slot: number }>()
    expect(results.map((row) => row.slot)).toEqual([SLOT, SLOT + 60_000])
    const lease = await env.DB.prepare(
      "SELECT last_slot, holder FROM jobs_leases WHERE name = 'reports.nightly'",
    ).first()
    expect(lease).toEqual({ last_slot: SLOT + 60_000, holder: null })
  })

  it("delivers a schedule to its consumer under the key schedule:<stream>/<id>:<occurrence>", async () => {
    const res = await exports.default.fetch("http://adopter/remind/7", { method: "POST" })
    expect(res.status).toBe(201)
    const schedule = (await res.json()) as { stream: string; id: string; nextAt: number; state: string }
    expect(schedule).toMatchObject({ stream: "user-7", id: "welcome", state: "scheduled" })

    const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName("user-7"))
    // The test's own class on the object's storage, built as the Worker's is, with a clock set at the due time.
    const Stream = Schedules.durableObject({ consumers, clock: () => schedule.nextAt })
    const report = await runInDurableObject(stub, (_, state) => new Stream(state, env).tick())
    expect(report).toMatchObject({ claimed: 1, delivered: 1 })
    const received = await env.DB.prepare("SELECT idempotency_key, payload FROM received").all()
    expect(received.results).toEqual([
      { idempotency_key: "schedule:user-7/welcome:1", payload: '{"message":"welcome"}' },
    ])
  })

  it("mounts admin where it chose, closed without the token and open with it", async () => {
    const closed = await exports.default.fetch("http://adopter/ops/jobs")
    expect(closed.status).toBe(401)
    expect(closed.headers.get("content-type")).toBe("application/problem+json")
    const open = await exports.default.fetch("http://adopter/ops/jobs", {
      headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` },
    })
    expect(open.status).toBe(200)
    const { jobs } = (await open.json()) as { jobs: Array<{ name: string }> }
    expect(jobs.map((job) => job.name)).toEqual(["reports.nightly", "schedules.alarm-watchdog"])
    expect((await exports.default.fetch("http://adopter/")).status).toBe(200)
  })
})
