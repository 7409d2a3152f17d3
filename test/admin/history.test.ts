import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import type { JobHistory, StreamHistory } from "../../src/infra/admin/answers.ts"
import { adminFetch, json } from "../support/admin.ts"
import { resetConsumers } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { tickAt } from "../support/streams.ts"
import { expectProblem, putSchedule, streamStub } from "./state.ts"

captureLogs()
const HOUR = 3_600_000
const CLOSE = "billing.close-expired-trials"

beforeEach(() => resetConsumers())

describe("GET /admin/jobs/:name/history", () => {
  it("answers a job's hours from its hour rows and its cron: due, ran, missed, durations", async () => {
    const now = Date.now()
    const hour = now - (now % HOUR)
    // Two nights of the daily job as its releases would have written them: one ran, one failed; one missed between.
    const night = (daysAgo: number) => hour - daysAgo * 24 * HOUR - (((hour / HOUR) % 24) - 3) * HOUR
    const insert =
      "INSERT INTO jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs) VALUES (?, ?, ?, ?, 0, 0, ?, ?)"
    await env.DB.batch([
      env.DB.prepare(insert).bind(CLOSE, night(4), 1, 0, 1_200, "0:r:1200"),
      env.DB.prepare(insert).bind(CLOSE, night(2), 0, 1, 90, "0:f:90"),
    ])
    const res = await adminFetch(`/admin/jobs/${CLOSE}/history?days=5`)
    expect(res.status).toBe(200)
    const history = (await json(res)) as JobHistory
    expect(history).toMatchObject({ job: CLOSE, days: 5, knownSince: night(4) })
    const shown = history.hours.map(({ hour, due, ran, failed, missed, medianMs, maxMs }) => ({
      hour,
      due,
      ran,
      failed,
      missed,
      medianMs,
      maxMs,
    }))
    expect(shown.slice(0, 3)).toEqual([
      { hour: night(4), due: 1, ran: 1, failed: 0, missed: 0, medianMs: 1_200, maxMs: 1_200 },
      { hour: night(3), due: 1, ran: 0, failed: 0, missed: 1, medianMs: null, maxMs: null },
      { hour: night(2), due: 1, ran: 0, failed: 1, missed: 0, medianMs: 90, maxMs: 90 },
    ])
  })

  it("refuses an unknown job (404) and days outside 1..30 (400 naming days)", async () => {
    await expectProblem(await adminFetch("/admin/jobs/no-such-job/history"), 404, "name")
    await expectProblem(await adminFetch(`/admin/jobs/${CLOSE}/history?days=0`), 400, "days")
    await expectProblem(await adminFetch(`/admin/jobs/${CLOSE}/history?days=31`), 400, "days")
  })
})

describe("GET /admin/streams/:stream/history", () => {
  it("answers the stream's deliveries per minute, and per hour for the month", async () => {
    const stream = "admin-history"
    // Due 5 s into a minute, so a tick that reads its clock a little after the time it is given stays in that minute.
    const at = Math.ceil(Date.now() / 60_000) * 60_000 + 65_000
    const schedule = await putSchedule(stream, "soon", { consumer: "test.scripted", at })
    const report = await tickAt(streamStub(stream) as never, schedule.nextAt + 250)
    expect(report).toMatchObject({ delivered: 1 })
    const day = (await json(await adminFetch(`/admin/streams/${stream}/history`))) as StreamHistory
    expect(day).toMatchObject({ stream, range: "day", stepMs: 60_000 })
    const minute = schedule.nextAt - (schedule.nextAt % 60_000)
    expect(day.points).toEqual([
      {
        at: minute,
        delivered: 1,
        backfilled: 0,
        retried: 0,
        failed: 0,
        lateMedianMs: 250,
        lateP99Ms: 250,
        lateMaxMs: 250,
      },
    ])
    const month = (await json(await adminFetch(`/admin/streams/${stream}/history?range=month`))) as StreamHistory
    expect(month).toMatchObject({ range: "month", stepMs: HOUR })
    expect(month.points.map(({ at, delivered }) => ({ at, delivered }))).toEqual([
      { at: minute - (minute % HOUR), delivered: 1 },
    ])
  })

  it("refuses a stream it does not know (404) and a range it does not keep (400 naming range)", async () => {
    await expectProblem(await adminFetch("/admin/streams/no-such-stream/history"), 404, "stream")
    await putSchedule("admin-history-range", "daily")
    await expectProblem(await adminFetch("/admin/streams/admin-history-range/history?range=week"), 400, "range")
  })
})
