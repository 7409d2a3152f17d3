import { env } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { releaseSlot } from "../../src/infra/jobs/protocol/lease.ts"
import { HOUR_MS, RUN_HOURS_KEPT_MS, RUN_HOURS_SWEPT } from "../../src/infra/jobs/protocol/run-hours.ts"
import { lateD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"
import { countingRoundTrips } from "../support/round-trips.ts"
import { hourRowsOf, hoursOfJob, runHourScenarios } from "../support/run-hour-scenarios.ts"

captureLogs()
const MINUTE = 60_000
const T0 = Date.UTC(2026, 10, 1, 0, 0)

let jobs = 0
const exclusive = (cron: string, run: Job["run"] = () => {}) =>
  Jobs.make({ name: `hours.job-${++jobs}`, cron, exclusive: true, timeout: "1 minute", run })

const rowsOf = async (name: string) => ({ results: await hoursOfJob(env.DB, name) })

// The same scenarios run on libSQL and a PostgreSQL server: test/node/run-hours.test.ts.
describe("a job's hourly history on D1", () => {
  runHourScenarios(() => env.DB)
})

describe("the hour row on D1", () => {
  it("is folded into the lease row by the release itself: a run is the claim and a batch of one statement, two round trips", async () => {
    const { db: DB, trips } = countingRoundTrips(env.DB)
    const job = exclusive("* * * * *")
    expect((await Jobs.run(job, new Date(T0), { env: { ...env, DB }, now: () => T0 })).status).toBe("ran")
    expect(trips).toEqual(["insert into jobs_leases", "batch of 1"])
    expect(hourRowsOf((await rowsOf(job.name)).results)).toEqual([
      { hour: T0, ran: 1, failed: 0, timed_out: 0, skipped: 0, runs: "0:r:0" },
    ])
    // The next hour's run flushes it to jobs_run_hours and sweeps, in that same batch.
    const later = { env: { ...env, DB }, now: () => T0 + HOUR_MS }
    expect((await Jobs.run(job, new Date(T0 + HOUR_MS), later)).status).toBe("ran")
    expect(trips.slice(2)).toEqual(["insert into jobs_leases", "batch of 3"])
    const stored = await env.DB.prepare("SELECT hour, runs FROM jobs_run_hours WHERE job = ?").bind(job.name).all()
    expect(stored.results).toEqual([{ hour: T0, runs: "0:r:0" }])
  })

  it("records a run that gave up on a late claim as skipped, in the compensating release it hands to waitUntil", async () => {
    let answer = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    const { db: DB } = lateD1(env.DB, (query) => (query.startsWith("insert into jobs_leases") ? answered : undefined))
    const handed: Array<Promise<unknown>> = []
    const job = exclusive("* * * * *")
    const deps = {
      env: { ...env, DB },
      now: () => T0 + 2_000,
      d1DeadlineMs: 20,
      waitUntil: (p: Promise<unknown>) => void handed.push(p),
    }
    expect(await Jobs.run(job, new Date(T0), deps)).toMatchObject({ status: "skipped", reason: "claim timed out" })
    answer()
    await Promise.all(handed)
    expect(hourRowsOf((await rowsOf(job.name)).results)).toEqual([
      { hour: T0, ran: 0, failed: 0, timed_out: 0, skipped: 1, runs: "0:s:0:c" },
    ])
  })

  it("records a slot whose claim answered too late for it to run as skipped, in the compensating release", async () => {
    const job = exclusive("* * * * *")
    const db = database(env.DB)
    const claimed = await db.run(
      `insert into jobs_leases (name, last_slot, lease_until, holder) values ('${job.name}', ${T0 + 5 * MINUTE}, ${T0 + 10 * MINUTE}, 'r-late')`,
    )
    expect(claimed.success).toBe(true)
    expect(await releaseSlot(db, job.name, "r-late", { skipped: { slot: T0 + 5 * MINUTE, at: T0 + 6 * MINUTE } })).toBe(
      true,
    )
    expect(hourRowsOf((await rowsOf(job.name)).results)).toEqual([
      { hour: T0, ran: 0, failed: 0, timed_out: 0, skipped: 1, runs: "5:s:0:c" },
    ])
  })

  it(`deletes at most ${RUN_HOURS_SWEPT} hours past the window a release, oldest first, through the hour index`, async () => {
    const plan = await env.DB.prepare(
      `EXPLAIN QUERY PLAN DELETE FROM jobs_run_hours WHERE (job, hour) IN
        (SELECT job, hour FROM jobs_run_hours WHERE hour < ? ORDER BY hour LIMIT ${RUN_HOURS_SWEPT})`,
    )
      .bind(T0)
      .all<{ detail: string }>()
    const details = plan.results.map((row) => row.detail).join("\n")
    expect(details).toMatch(/USING (COVERING )?INDEX jobs_run_hours_hour/)
    expect(details).not.toMatch(/SCAN jobs_run_hours\b(?! USING)/)
    expect(RUN_HOURS_KEPT_MS).toBe(30 * 24 * HOUR_MS)
  })
})
