import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { describe, expect, it, vi } from "vitest"
import type { Answers } from "../../src/infra/admin/answers.ts"
import type { JobMessage } from "../../src/infra/jobs/contract/job-message.ts"
import { slotOf } from "../../src/infra/jobs/contract/slot.ts"
import { beat, HEARTBEAT_CRON } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { adminFetch } from "../support/admin.ts"
import { captureLogs } from "../support/logs.ts"
import { workerJobs as jobs } from "../support/worker.ts"
import { expectProblem } from "./state.ts"

const logs = captureLogs()
const MINUTE = 60_000
const ROLL_UP = "billing.roll-up-usage"

const post = (path: string, body?: unknown) =>
  adminFetch(`/admin${path}`, { method: "POST", ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
const get = async <R extends keyof Answers>(path: string): Promise<Answers[R]> => {
  const res = await adminFetch(`/admin${path}`)
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as Answers[R]
}
/** Fires the heartbeat for `slot`, the database's clock standing 1 s into it: what ran, by job. */
const fire = async (slot: number) =>
  Object.fromEntries(
    (await beat(jobs, slot, env, { now: () => slot + 1_000 })).map((result) => [result.job, result.status]),
  )

describe("pausing and resuming a job through admin", () => {
  it("skips a paused job's slots, shows them as paused (not missed) with who paused it and why, and runs again from the next slot once resumed", async () => {
    const now = Date.now()
    // Ten minutes of slots before now: one run, then the pause, then slots the heartbeat skips.
    const first = slotOf(now).getTime() - 10 * MINUTE
    expect((await fire(first))[ROLL_UP]).toBe("ran")

    const paused = await post(`/jobs/${ROLL_UP}/pause`, { reason: "  usage store migration  " })
    expect(paused.status, await paused.clone().text()).toBe(200)
    const answer = (await paused.json()) as Answers["pauseJob"]
    expect(answer).toMatchObject({
      created: true,
      pause: { job: ROLL_UP, reason: "usage store migration", pausedBy: null, resumedAt: null },
    })
    expect(answer.pause.pausedAt).toBeGreaterThanOrEqual(now)
    // The pause began just after that run (as if the operator paused it then): its time is the only thing moved.
    const pausedAt = first + 30_000
    await env.DB.prepare("UPDATE jobs_pauses SET paused_at = ? WHERE job = ?").bind(pausedAt, ROLL_UP).run()

    const skipped = [first + MINUTE, first + 2 * MINUTE]
    for (const slot of skipped) {
      const ran = await fire(slot)
      expect(ran[ROLL_UP], new Date(slot).toISOString()).toBeUndefined()
      // The other jobs still run.
      expect(ran["schedules.alarm-watchdog"]).toBe("ran")
    }
    expect(logs.of("job.run").filter((line) => line.job === ROLL_UP && line.outcome === "paused")).toHaveLength(2)
    const lease = await env.DB.prepare("SELECT last_slot FROM jobs_leases WHERE name = ?").bind(ROLL_UP).first()
    expect(lease?.last_slot).toBe(first)

    // History: every slot from the pause on that no run took is paused, none missed.
    const history = await get<"jobHistory">(`/jobs/${ROLL_UP}/history?days=1`)
    const hours = history.hours.filter((hour) => hour.hour + 60 * MINUTE > first)
    expect(hours.reduce((n, hour) => n + hour.missed, 0)).toBe(0)
    const pausedSlots = history.today.filter((slot) => slot.status === "paused").map((slot) => slot.slot)
    expect(pausedSlots.length).toBe(hours.reduce((n, hour) => n + hour.paused, 0))
    for (const slot of skipped) if (history.today.some((s) => s.slot === slot)) expect(pausedSlots).toContain(slot)
    expect(history.today.find((slot) => slot.slot === first)?.status ?? "ran").toBe("ran")

    // The job list: its pause, and its newest slots as paused.
    const { jobs: views } = await get<"jobs">("/jobs")
    const view = views.find((job) => job.name === ROLL_UP)
    expect(view?.paused).toMatchObject({ reason: "usage store migration", pausedAt, pausedBy: null })
    const statuses = new Map(view?.slots.map((slot) => [slot.slot, slot.status]))
    for (const slot of skipped) expect(statuses.get(slot)).toBe("paused")
    expect(statuses.get(first)).toBe("ran")
    expect([...statuses.values()]).not.toContain("missed")

    // Health: what is paused, by whom and since when.
    const health = await get<"health">("/health")
    expect(health.paused).toEqual([
      {
        job: ROLL_UP,
        pausedAt,
        pausedBy: null,
        reason: "usage store migration",
        resumedAt: null,
        resumedBy: null,
      },
    ])

    // A second pause changes nothing.
    const again = (await (await post(`/jobs/${ROLL_UP}/pause`, { reason: "again" })).json()) as Answers["pauseJob"]
    expect(again).toMatchObject({ created: false, pause: { reason: "usage store migration", pausedAt } })

    const resumed = await post(`/jobs/${ROLL_UP}/resume`)
    expect(resumed.status).toBe(200)
    const { pause } = (await resumed.json()) as Answers["resumeJob"]
    expect(pause.resumedAt).toBeGreaterThanOrEqual(now)
    expect((await get<"health">("/health")).paused).toEqual([])
    // Resumed: the next slot runs.
    const next = slotOf(pause.resumedAt as number).getTime() + MINUTE
    expect((await fire(next))[ROLL_UP]).toBe("ran")
    // The skipped slots stay paused in the history once resumed.
    const after = await get<"jobs">("/jobs")
    const kept = new Map(after.jobs.find((job) => job.name === ROLL_UP)?.slots.map((slot) => [slot.slot, slot.status]))
    for (const slot of skipped) expect(kept.get(slot)).toBe("paused")
    expect(after.jobs.find((job) => job.name === ROLL_UP)?.paused).toBeNull()

    await expectProblem(await post(`/jobs/${ROLL_UP}/resume`), 409)
  })

  it("hands no paused job to the Queue either", async () => {
    const one = Jobs.make({
      name: "pause.queued-one",
      cron: "* * * * *",
      exclusive: true,
      timeout: 1_000,
      run: () => {},
    })
    const two = Jobs.make({
      name: "pause.queued-two",
      cron: "* * * * *",
      exclusive: true,
      timeout: 1_000,
      run: () => {},
    })
    await env.DB.prepare("INSERT INTO jobs_pauses (job, paused_at, reason) VALUES (?, ?, ?)")
      .bind(two.name, 0, "queued job paused")
      .run()
    // The runtime's own Queue binding, observed as the heartbeat calls it.
    const sent = vi.spyOn(env.HELD_JOBS, "sendBatch")
    const ctx = createExecutionContext()
    const slot = Date.UTC(2026, 10, 30, 12, 0)
    await Jobs.heartbeat([one, two], { queue: "HELD_JOBS" })(
      { scheduledTime: slot, cron: HEARTBEAT_CRON, noRetry: () => {} },
      env,
      ctx,
    )
    await waitOnExecutionContext(ctx)
    const jobsSent = sent.mock.calls.flatMap(([messages]) => [...messages].map((m) => (m.body as JobMessage).job))
    sent.mockRestore()
    expect(jobsSent).toEqual([one.name])
    expect(
      logs
        .of("job.run")
        .filter((line) => line.outcome === "paused")
        .map((line) => line.job),
    ).toEqual([two.name])
  })

  it("refuses a pause without a reason, naming the field, and an unknown job, writing nothing", async () => {
    const count = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM jobs_pauses").first<{ n: number }>())?.n ?? 0
    const before = await count()
    await expectProblem(await post(`/jobs/${ROLL_UP}/pause`, { reason: "   " }), 400, "reason")
    await expectProblem(await post(`/jobs/${ROLL_UP}/pause`, {}), 400, "reason")
    await expectProblem(await post(`/jobs/${ROLL_UP}/pause`, { reason: "x".repeat(501) }), 400, "reason")
    await expectProblem(await post(`/jobs/${ROLL_UP}/pause`, { reason: "ok", extra: 1 }), 400)
    await expectProblem(await post("/jobs/no.such-job/pause", { reason: "why" }), 404, "name")
    await expectProblem(await post("/jobs/no.such-job/resume"), 404, "name")
    expect(await count()).toBe(before)
  })

  it("declares both routes in the OpenAPI document", async () => {
    const res = await adminFetch("/admin/openapi.json")
    const document = (await res.json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>
    }
    expect(document.paths["/jobs/{name}/pause"]?.post?.requestBody).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/PauseBody" } } },
    })
    expect(Object.keys(document.paths["/jobs/{name}/resume"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "404", "409"]),
    )
  })
})
