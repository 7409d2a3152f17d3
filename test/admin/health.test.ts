import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import type { HealthView } from "../../src/infra/admin/answers.ts"
import { HEALTH_STREAMS } from "../../src/infra/admin/retrying.ts"
import { ALERTS_JOB } from "../../src/infra/alerts/alert-job.ts"
import { database } from "../../src/infra/db/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { pauseJob, resumeJob } from "../../src/infra/jobs/protocol/pauses.ts"
import { watchdog } from "../../src/infra/schedules/directory/watchdog.ts"
import { adminFetch, json } from "../support/admin.ts"
import { resetConsumers } from "../support/consumers.ts"
import { failingD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"
import { expectProblem, putSchedule } from "./state.ts"

const logs = captureLogs()
const MINUTE = 60_000
const minute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE

const health = async (): Promise<HealthView> => {
  const res = await adminFetch("/admin/health")
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as HealthView
}

const setLease = (name: string, lastSlot: number) =>
  env.DB.prepare(
    `INSERT INTO jobs_leases (name, last_slot) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET last_slot = excluded.last_slot`,
  )
    .bind(name, lastSlot)
    .run()

beforeEach(async () => {
  resetConsumers()
  await env.DB.batch([
    env.DB.prepare("DELETE FROM jobs_leases"),
    env.DB.prepare("DELETE FROM schedule_streams"),
    env.DB.prepare("DELETE FROM jobs_pauses"),
  ])
})

describe("GET /admin/health", () => {
  it("is behind the door", async () => {
    await expectProblem(await adminFetch("/admin/health", { token: null }), 401)
  })

  it("is not ok while the watchdog or the alerts job is paused, and says what it cannot vouch for and why", async () => {
    const db = database(env.DB)
    const now = Date.now()
    await setLease(watchdog.name, minute(now) - MINUTE)
    expect((await health()).ok).toBe(true)
    expect((await health()).blind).toEqual([])
    for (const job of [watchdog.name, ALERTS_JOB]) {
      await pauseJob(db, { job, reason: "noisy during the migration", by: null, now })
      const view = await health()
      expect(view.ok, job).toBe(false)
      expect(view.blind).toEqual([
        {
          job,
          cannot: expect.stringMatching(job === ALERTS_JOB ? /^alerts: no rule is judged/ : /^streams behind: /),
          pause: expect.objectContaining({ job, reason: "noisy during the migration" }),
        },
      ])
      await resumeJob(db, { job, by: null, now: Date.now() })
      expect((await health()).ok).toBe(true)
    }
    // Another job's pause is a choice health can still see around: listed as paused, still ok.
    await pauseJob(db, { job: "billing.roll-up-usage", reason: "quiet", by: null, now })
    const view = await health()
    expect([view.ok, view.blind, view.paused.map((pause) => pause.job)]).toEqual([true, [], ["billing.roll-up-usage"]])
    await resumeJob(db, { job: "billing.roll-up-usage", by: null, now: Date.now() })
  })

  it("says unknown before any exclusive job has claimed a slot", async () => {
    expect((await health()).heartbeat).toMatchObject({ status: "unknown", lastFiredAt: null, ageMs: null })
  })

  it("takes the heartbeat's last fire from the newest slot the leases record, alive within 2 minutes", async () => {
    const now = Date.now()
    await setLease("billing.close-expired-trials", minute(now) - 3 * 86_400_000)
    await setLease(watchdog.name, minute(now) - MINUTE)
    const view = await health()
    expect(view.heartbeat).toMatchObject({ status: "alive", lastFiredAt: minute(now) - MINUTE, missedSlot: null })
    expect(view.heartbeat.ageMs).toBeGreaterThanOrEqual(MINUTE)
    expect(view.ok).toBe(true)
  })

  it("says ahead, and not ok, when a slot was claimed in the future (while the database's clock ran ahead), not alive", async () => {
    const now = Date.now()
    const tomorrow = minute(now) + 86_400_000
    // The claim's referee a day ahead: a replica's run of tomorrow's slot is not refused.
    const ran = await Jobs.run(watchdog, new Date(tomorrow), { env, now: () => tomorrow + 1_000 })
    expect(ran.status).toBe("ran")
    const view = await health()
    expect(view.heartbeat).toMatchObject({ status: "ahead", aheadSlot: tomorrow })
    expect(view.ok).toBe(false)
  })

  it("shows a lease a failed release left held past its job's next slot, whose claim warned once naming its slot, and is not ok", async () => {
    const first = minute(Date.now()) - MINUTE
    const releaseFails = { ...env, DB: failingD1(env.DB, (query) => query.startsWith("update")).db }
    const ran = await Jobs.run(watchdog, new Date(first), { env: releaseFails, runId: "stuck-run" })
    expect(ran.status).toBe("ran")
    // The run ran but is not recorded: an error line, not the run's info line.
    expect(logs.of("job.run")).toEqual([
      expect.objectContaining({ level: "error", outcome: "ran", runId: "stuck-run", releaseError: expect.any(String) }),
    ])
    const refused = await Jobs.run(watchdog, new Date(first + MINUTE), { env, runId: "next-run" })
    expect(refused).toMatchObject({ status: "skipped", reason: "lease held" })
    expect(logs.of("job.run").filter((line) => line.level === "warn")).toEqual([
      expect.objectContaining({
        runId: "next-run",
        reason: "lease held",
        heldBy: { slot: new Date(first).toISOString(), runId: "stuck-run" },
      }),
    ])
    const view = await health()
    expect(view.heldLeases).toEqual([
      {
        job: watchdog.name,
        slot: first,
        runId: "stuck-run",
        leaseUntil: expect.any(Number),
        refusedSlot: first + MINUTE,
      },
    ])
    expect(view.ok).toBe(false)
  })

  it("shows the busiest minute's due jobs against what one heartbeat runs on the declared plan", async () => {
    // The app's jobs: three every minute (the watchdog and the alerts job among them), one at 03:00; the registry
    // declares no plan, so Workers Free's.
    expect((await health()).capacity).toEqual({
      plan: "free",
      jobsPerHeartbeat: 100,
      mostDue: 4,
      mostDueAt: "03:00",
      overflowQueue: null,
      ok: true,
    })
  })

  it("says late, and not ok, once the every-minute jobs' next slot after the last fire went unclaimed", async () => {
    const lastFire = minute(Date.now()) - 5 * MINUTE
    await setLease(watchdog.name, lastFire)
    const view = await health()
    expect(view.heartbeat).toMatchObject({ status: "late", lastFiredAt: lastFire, missedSlot: lastFire + MINUTE })
    expect(view.heartbeat.ageMs).toBeGreaterThan(2 * MINUTE)
    expect(view.ok).toBe(false)
  })

  it("reports what the watchdog's last run found: how many streams overdue, and the most overdue with its lag", async () => {
    const slot = minute(Date.now())
    const stale = [
      ["health-lost-a", slot - 30 * MINUTE],
      ["health-lost-b", slot - 10 * MINUTE],
      ["health-fine", slot + MINUTE],
    ] as const
    await env.DB.batch(
      stale.map(([name, at]) =>
        env.DB.prepare("INSERT INTO schedule_streams (name, listed_at, next_eligible_at) VALUES (?, ?, ?)").bind(
          name,
          slot,
          at,
        ),
      ),
    )
    expect((await health()).watchdog).toMatchObject({
      job: watchdog.name,
      declared: true,
      lastRun: null,
      summary: null,
    })
    expect((await Jobs.run(watchdog, new Date(slot), { env })).status).toBe("ran")
    const view = await health()
    expect(view.watchdog.summary).toEqual({
      overdue: 2,
      nudged: 2,
      failed: 0,
      mostOverdue: { stream: "health-lost-a", lagMs: 30 * MINUTE },
    })
    expect(view.watchdog.lastRun).toMatchObject({ slot, outcome: "ran" })
    expect(view.heartbeat.status).toBe("alive")
    expect(view.ok).toBe(false)
  })

  it("counts the schedules waiting for a retry in the streams that can hold one", async () => {
    const empty = await health()
    expect(empty.retrying).toEqual({ schedules: 0, streamsAsked: 0, unanswered: 0, complete: true })
    const refusing = { consumer: "test.refusing", payload: { reason: "health test" }, at: Date.now() }
    await putSchedule("health-retrying", "first", refusing)
    await putSchedule("health-retrying", "second", refusing)
    // Far off: its stream's recorded alarm is beyond any retry's wait, so health does not ask it.
    await putSchedule("health-idle", "daily", { consumer: "test.scripted", every: "1 day" })
    const deadline = Date.now() + 10_000
    let view = await health()
    while (view.retrying.schedules < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      view = await health()
    }
    expect(view.retrying).toEqual({ schedules: 2, streamsAsked: 1, unanswered: 0, complete: true })
    expect(HEALTH_STREAMS).toBeGreaterThan(1)
  })
})

describe("GET /admin/streams/:stream/summary", () => {
  it("counts a stream's schedules by state", async () => {
    await putSchedule("summary-route", "daily", { consumer: "test.scripted", every: "1 day" })
    await putSchedule("summary-route", "hourly", { consumer: "test.scripted", every: "1 hour" })
    await putSchedule("summary-route", "stopped", { consumer: "test.scripted", every: "1 hour" })
    expect((await adminFetch("/admin/streams/summary-route/schedules/stopped/cancel", { method: "POST" })).status).toBe(
      200,
    )
    const summary = await json(await adminFetch("/admin/streams/summary-route/summary"))
    expect(summary).toMatchObject({
      stream: "summary-route",
      counts: { scheduled: 2, completed: 0, cancelled: 1, failed: 0 },
      retrying: 0,
      partial: false,
      overdue: 0,
      oldestOverdue: null,
    })
  })

  it("answers 404 naming the stream for a stream the directory does not list, without creating it", async () => {
    await expectProblem(await adminFetch("/admin/streams/summary-ghost/summary"), 404, "stream")
    await expectProblem(await adminFetch("/admin/streams/a%20b/summary"), 400, "stream")
  })
})
