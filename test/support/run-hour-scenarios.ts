import { expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import { jobHistory } from "../../src/infra/jobs/history/history.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { HOUR_MS, RUN_HOURS_KEPT_MS, RUN_HOURS_SWEPT, readRunHours } from "../../src/infra/jobs/protocol/run-hours.ts"

const MINUTE = 60_000
const DAY = 24 * HOUR_MS
// Epoch milliseconds past 2^31: a 32-bit column would overflow.
const T0 = Date.UTC(2026, 10, 2, 0, 0)

/** A jobs_run_hours row as the tests compare it. */
export interface HourRow {
  hour: number
  ran: number
  failed: number
  timed_out: number
  skipped: number
  max_ms?: number
  runs: string
}

/**
 * A job's hour rows as its history reads them (readRunHours): the rows of jobs_run_hours and the hour its
 * lease row folds, each with its counts by outcome, oldest first.
 */
export async function hoursOfJob(binding: D1Database, name: string): Promise<HourRow[]> {
  const { rows } = await readRunHours(database(binding), name, 0)
  const count = (runs: string, letter: string) =>
    runs.split(",").filter((entry) => entry.split(":")[1] === letter).length
  return rows
    .map(({ hour, runs }) => ({
      hour: Number(hour),
      ran: count(runs, "r"),
      failed: count(runs, "f"),
      timed_out: count(runs, "t"),
      skipped: count(runs, "s"),
      runs,
    }))
    .sort((a, b) => a.hour - b.hour)
}

export const hourRowsOf = (rows: readonly HourRow[]) =>
  rows.map(({ hour, ran, failed, timed_out, skipped, runs }) => ({
    hour: Number(hour),
    ran: Number(ran),
    failed: Number(failed),
    timed_out: Number(timed_out),
    skipped: Number(skipped),
    runs,
  }))

let jobs = 0

/**
 * A job's hourly history, registered once per database: D1 in workerd (test/jobs/run-hours.test.ts),
 * libSQL and a PostgreSQL server in Node (test/node/run-hours.test.ts), each through its D1 binding,
 * as Jobs.run writes it.
 */
export function runHourScenarios(binding: () => D1Database) {
  const make = (cron: string, run: Job["run"] = () => {}) =>
    Jobs.make({ name: `run-hours.job-${Date.now()}-${++jobs}`, cron, exclusive: true, timeout: "1 minute", run })
  /** Runs `job` for `slot`, started 1 s into it and taking `ms`. */
  const runAt = async (job: Job, slot: number, ms: number) => {
    const times = [slot + 1_000, slot + 1_000, slot + 1_000 + ms]
    const now = () => times.shift() ?? slot + 1_000 + ms
    return Jobs.run(job, new Date(slot), { env: { DB: binding() } as never, now })
  }
  const rowsOf = (name: string) => hoursOfJob(binding(), name)
  const historyOf = async (job: Job, now: number, days = 7) => {
    const { rows, firstRun, lease } = await readRunHours(database(binding()), job.name, now - days * DAY)
    return jobHistory(job, rows, firstRun, lease, now, days)
  }

  it("counts no missed slot before a job's first run: a job first run at 11:40 missed nothing from 11:00", async () => {
    let failing = false
    const job = make("* * * * *", () => {
      if (failing) throw new Error("failed on purpose")
    })
    const eleven = T0 + 11 * HOUR_MS
    // First run at 11:40; 11:45 and 11:46 fail; 11:50 and 11:51 are missed; the rest run.
    for (let minute = 40; minute < 60; minute++) {
      if (minute === 50 || minute === 51) continue
      failing = minute === 45 || minute === 46
      await runAt(job, eleven + minute * MINUTE, 10)
    }
    const history = await historyOf(job, eleven + 70 * MINUTE)
    expect(history.knownSince).toBe(eleven + 40 * MINUTE)
    expect(history.hours[0]).toEqual({
      hour: eleven,
      due: 20,
      ran: 16,
      failed: 2,
      timedOut: 0,
      skipped: 0,
      missed: 2,
      paused: 0,
      medianMs: 10,
      maxMs: 10,
    })
    // Today's marks say the same slot by slot: nothing before 11:40 is missed.
    const statuses = new Map(history.today.map((slot) => [slot.slot, slot.status]))
    expect(statuses.get(eleven + 39 * MINUTE)).toBe("unknown")
    expect(statuses.get(eleven)).toBe("unknown")
    expect(statuses.get(eleven + 40 * MINUTE)).toBe("ran")
    expect(statuses.get(eleven + 45 * MINUTE)).toBe("failed")
    expect(statuses.get(eleven + 50 * MINUTE)).toBe("missed")
    expect(history.today.filter((slot) => slot.status === "missed").length).toBe(
      history.hours.reduce((n, hour) => n + hour.missed, 0),
    )
  })

  it("counts each run in its slot's hour: outcomes, the max, each duration, and the missed slots from the cron", async () => {
    let failing = false
    const job = make("*/10 * * * *", () => {
      if (failing) throw new Error("failed on purpose")
    })
    for (const [minute, ms] of [
      [0, 100],
      [10, 400],
      [20, 200],
    ] as const)
      expect((await runAt(job, T0 + minute * MINUTE, ms)).status).toBe("ran")
    failing = true
    expect((await runAt(job, T0 + 30 * MINUTE, 900)).status).toBe("failed")

    expect(hourRowsOf(await rowsOf(job.name))).toEqual([
      { hour: T0, ran: 3, failed: 1, timed_out: 0, skipped: 0, runs: "0:r:100,10:r:400,20:r:200,30:f:900" },
    ])
    const history = await historyOf(job, T0 + 55 * MINUTE)
    // :40 and :50 were due and no run took them; :50 is a minute past by 54:00.
    expect(history.hours).toEqual([
      { hour: T0, due: 6, ran: 3, failed: 1, timedOut: 0, skipped: 0, missed: 2, paused: 0, medianMs: 300, maxMs: 900 },
    ])
    expect(history.knownSince).toBe(T0)
  })

  it("finds the night a daily job did not run, and counts nothing missed before its first run", async () => {
    const job = make("0 3 * * *")
    const night = (day: number) => T0 + day * DAY + 3 * HOUR_MS
    for (const day of [2, 3, 5]) expect((await runAt(job, night(day), 60_000)).status).toBe("ran")
    const history = await historyOf(job, T0 + 6 * DAY + 12 * HOUR_MS)
    expect(history.hours.map(({ hour, due, ran, missed }) => ({ hour, due, ran, missed }))).toEqual([
      { hour: night(2), due: 1, ran: 1, missed: 0 },
      { hour: night(3), due: 1, ran: 1, missed: 0 },
      { hour: night(4), due: 1, ran: 0, missed: 1 },
      { hour: night(5), due: 1, ran: 1, missed: 0 },
      { hour: night(6), due: 1, ran: 0, missed: 1 },
    ])
    expect(history.hours[0]).toMatchObject({ medianMs: 60_000, maxMs: 60_000 })
  })

  it(`deletes hours older than 30 days, ${RUN_HOURS_SWEPT} for each hour a release flushes, oldest first`, async () => {
    const job = make("0 * * * *")
    // Before the other scenarios' hours, so that its old hours are the oldest of all: the sweep takes any job's.
    const now = T0 - 60 * DAY
    const old = Array.from({ length: 10 }, (_, i) => now - RUN_HOURS_KEPT_MS - (10 - i) * HOUR_MS)
    for (const hour of old) {
      await binding()
        .prepare(
          "INSERT INTO jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs) VALUES (?, ?, 1, 0, 0, 0, 5, '0:r:5')",
        )
        .bind(job.name, hour)
        .run()
    }
    const hoursOf = async () => (await rowsOf(job.name)).map((row) => Number(row.hour))
    // A job's first hour rides on its lease row: nothing is flushed, nothing swept.
    await runAt(job, now - HOUR_MS, 10)
    expect(await hoursOf()).toEqual([...old, now - HOUR_MS])
    // Each later hour flushes the one before it, and sweeps as many as RUN_HOURS_SWEPT of the oldest.
    await runAt(job, now, 10)
    expect(await hoursOf()).toEqual([...old.slice(RUN_HOURS_SWEPT), now - HOUR_MS, now])
    await runAt(job, now + 10 * MINUTE, 10)
    expect(await hoursOf()).toEqual([...old.slice(RUN_HOURS_SWEPT), now - HOUR_MS, now])
    await runAt(job, now + HOUR_MS, 10)
    await runAt(job, now + 2 * HOUR_MS, 10)
    expect(await hoursOf()).toEqual([now - HOUR_MS, now, now + HOUR_MS, now + 2 * HOUR_MS])
  })

  it("stays within 24 x 30 rows a job as it runs on, whatever it has run before", async () => {
    const job = make("0 */8 * * *")
    let most = 0
    for (let slot = T0; slot < T0 + 33 * DAY; slot += 8 * HOUR_MS) {
      await runAt(job, slot, 1)
      most = Math.max(most, (await rowsOf(job.name)).length)
    }
    // One hour a run: 30 days of runs every 8 hours, the newest the run that has just come in (on its lease row).
    expect(most).toBe(30 * 3)
  })
}
