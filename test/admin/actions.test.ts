import { runDurableObjectAlarm } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import type { JobView as JobAnswer } from "../../src/infra/admin/answers.ts"
import { slotOf } from "../../src/infra/jobs/contract/slot.ts"
import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import type { ScheduleEvent, ScheduleView } from "../../src/infra/schedules/index.ts"
import { adminFetch, json } from "../support/admin.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { until } from "../support/streams.ts"
import { workerJobs as jobs } from "../support/worker.ts"
import { awayFromMinuteEdge, DAILY, expectProblem, putSchedule, streamStorage, streamStub } from "./state.ts"

const logs = captureLogs()
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const ROLL_UP = "billing.roll-up-usage"
const CLOSE = "billing.close-expired-trials"

const setLease = (name: string, lastSlot: number, leaseUntil: number | null, holder: string | null) =>
  env.DB.prepare(
    `INSERT INTO jobs_leases (name, last_slot, lease_until, holder) VALUES (?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET last_slot = excluded.last_slot, lease_until = excluded.lease_until,
       holder = excluded.holder`,
  )
    .bind(name, lastSlot, leaseUntil, holder)
    .run()
const dropLease = (name: string) => env.DB.prepare("DELETE FROM jobs_leases WHERE name = ?").bind(name).run()
const leaseRow = (name: string) =>
  env.DB.prepare("SELECT name, last_slot, lease_until, holder FROM jobs_leases WHERE name = ?").bind(name).first()

interface LeaseView {
  lastSlot: number | null
  leaseUntil: number | null
  holder: string | null
  status: "free" | "held" | "expired"
}
interface JobView {
  name: string
  cron: string
  exclusive: boolean
  timeoutMs: number
  leaseMs: number
  nextSlot: number
  lease: LeaseView
}

const jobsView = async () => {
  const res = await adminFetch("/admin/jobs")
  expect(res.status).toBe(200)
  return (await res.json()) as { now: number; jobs: JobView[] }
}
const leasesView = async () => {
  const res = await adminFetch("/admin/leases")
  expect(res.status).toBe(200)
  return (await res.json()) as { now: number; leases: Array<LeaseView & { name: string; declared: boolean }> }
}
const runNow = (name: string) => adminFetch(`/admin/jobs/${name}/run`, { method: "POST" })

/** An exclusive job whose run `held` waits, once `running`, until `finish()`; its other runs end at once. */
function heldJob(name: string, held: string) {
  let started = () => {}
  const running = new Promise<void>((resolve) => {
    started = resolve
  })
  let finish = () => {}
  const finishing = new Promise<void>((resolve) => {
    finish = resolve
  })
  const job = Jobs.make({
    name,
    cron: "* * * * *",
    exclusive: true,
    timeout: "1 minute",
    run: async (_slot, ctx) => {
      if (ctx.runId !== held) return
      started()
      await finishing
    },
  })
  return { job, running, finish }
}

/** The next slot of the declared crons, computed without the cron library. */
const NEXT: Record<string, (now: number) => number> = {
  "* * * * *": (now) => Math.floor(now / MINUTE) * MINUTE + MINUTE,
  "0 3 * * *": (now) => {
    const today = Math.floor(now / DAY) * DAY + 3 * HOUR
    return today > now ? today : today + DAY
  },
}

describe("GET /admin/jobs", () => {
  it("shows every declared job with its cron, exclusivity, timeout and next slot", async () => {
    const view = await jobsView()
    expect(Math.abs(view.now - Date.now())).toBeLessThan(5_000)
    expect(view.jobs.map((job) => job.name)).toEqual(jobs.map((job) => job.name))
    expect(view.jobs.map((job) => job.name)).toEqual(expect.arrayContaining([ROLL_UP, CLOSE]))
    for (const [i, job] of jobs.entries()) {
      const shown = view.jobs[i] as JobView
      expect(shown).toMatchObject({
        name: job.name,
        cron: job.cron,
        exclusive: job.exclusive,
        timeoutMs: job.timeoutMs,
        leaseMs: job.leaseMs,
      })
      const next = shown.nextSlot
      // A future minute the cron names, and the first one.
      expect(next).toBeGreaterThan(view.now)
      expect(next % MINUTE).toBe(0)
      expect(job.schedule.matches(next), job.name).toBe(true)
      const expected = NEXT[job.cron]
      if (expected) expect(next, job.name).toBe(expected(view.now))
      for (let t = Math.floor(view.now / MINUTE) * MINUTE + MINUTE; t < next && t < view.now + 2 * DAY; t += MINUTE) {
        expect(job.schedule.matches(t), `${job.name} at ${new Date(t).toISOString()}`).toBe(false)
      }
    }
    expect(view.jobs.find((job) => job.name === CLOSE)).toMatchObject({ timeoutMs: 5 * MINUTE, exclusive: true })
  })

  it("shows each lease as free, held or expired from the jobs_leases row", async () => {
    const now = Date.now()
    const slot = Math.floor(now / MINUTE) * MINUTE - 10 * MINUTE
    await dropLease(ROLL_UP)
    await dropLease(CLOSE)
    const none = await jobsView()
    const noLease = { lastSlot: null, leaseUntil: null, holder: null, status: "free" }
    expect(none.jobs.find((job) => job.name === ROLL_UP)?.lease).toEqual(noLease)
    expect(none.jobs.find((job) => job.name === CLOSE)?.lease).toEqual(noLease)

    await setLease(ROLL_UP, slot, now + 10 * MINUTE, "run-held")
    await setLease(CLOSE, slot, now - 1_000, "run-gone")
    const first = await jobsView()
    expect(first.jobs.find((job) => job.name === ROLL_UP)?.lease).toEqual({
      lastSlot: slot,
      leaseUntil: now + 10 * MINUTE,
      holder: "run-held",
      status: "held",
    })
    expect(first.jobs.find((job) => job.name === CLOSE)?.lease).toEqual({
      lastSlot: slot,
      leaseUntil: now - 1_000,
      holder: "run-gone",
      status: "expired",
    })

    await setLease(ROLL_UP, slot, null, null)
    await setLease(CLOSE, slot, now + 10 * MINUTE, "run-held")
    const second = await jobsView()
    expect(second.jobs.find((job) => job.name === ROLL_UP)?.lease).toEqual({
      lastSlot: slot,
      leaseUntil: null,
      holder: null,
      status: "free",
    })
    expect(second.jobs.find((job) => job.name === CLOSE)?.lease.status).toBe("held")
  })
})

describe("GET /admin/leases", () => {
  it("lists every lease row by name, an undeclared one included", async () => {
    const now = Date.now()
    await setLease(ROLL_UP, 1_000 * MINUTE, now + MINUTE, "h1")
    await setLease("ghost.job", 2_000 * MINUTE, null, null)
    await setLease("a-retired.job", 3_000 * MINUTE, now - MINUTE, "h3")
    const view = await leasesView()
    const names = view.leases.map((lease) => lease.name)
    expect(names).toEqual([...names].sort())
    expect(view.leases.find((lease) => lease.name === "ghost.job")).toEqual({
      name: "ghost.job",
      declared: false,
      lastSlot: 2_000 * MINUTE,
      leaseUntil: null,
      holder: null,
      status: "free",
    })
    expect(view.leases.find((lease) => lease.name === "a-retired.job")).toMatchObject({
      declared: false,
      status: "expired",
      holder: "h3",
    })
    expect(view.leases.find((lease) => lease.name === ROLL_UP)).toEqual({
      name: ROLL_UP,
      declared: true,
      lastSlot: 1_000 * MINUTE,
      leaseUntil: now + MINUTE,
      holder: "h1",
      status: "held",
    })
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM jobs_leases").first<{ n: number }>()
    expect(view.leases).toHaveLength(rows?.n ?? -1)
    // /admin/jobs shows declared jobs only.
    expect((await jobsView()).jobs.map((job) => job.name)).not.toContain("ghost.job")
  })
})

describe("DELETE /admin/leases/:name", () => {
  it("releases a held lease but keeps last_slot, so that slot is still refused, and logs the release", async () => {
    await awayFromMinuteEdge()
    const slot = slotOf(Date.now()).getTime()
    const until = Date.now() + 10 * MINUTE
    await setLease(ROLL_UP, slot, until, "stuck-run")
    expect((await leasesView()).leases.find((lease) => lease.name === ROLL_UP)?.status).toBe("held")

    const res = await adminFetch(`/admin/leases/${ROLL_UP}?force=true`, { method: "DELETE" })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      released: true,
      lease: { lastSlot: slot, leaseUntil: null, holder: null, status: "free" },
    })
    expect(await leaseRow(ROLL_UP)).toEqual({ name: ROLL_UP, last_slot: slot, lease_until: null, holder: null })
    expect(logs.of("lease released by admin")).toEqual([
      expect.objectContaining({
        level: "warn",
        job: ROLL_UP,
        holder: "stuck-run",
        leaseUntil: until,
        lastSlot: slot,
        released: true,
        forced: true,
      }),
    ])

    // The released slot is not run again: not by the heartbeat's path, not by run-now.
    const replay = await Jobs.run(jobs.find((job) => job.name === ROLL_UP)!, new Date(slot), { env })
    expect(replay).toMatchObject({ status: "skipped", reason: "slot taken" })
    const body = await expectProblem(await runNow(ROLL_UP), 409)
    expect(body.detail).toContain(new Date(slot).toISOString())
    expect(await leaseRow(ROLL_UP)).toEqual({ name: ROLL_UP, last_slot: slot, lease_until: null, holder: null })
    expect(logs.of("job.run").filter((line) => line.outcome === "ran")).toEqual([])

    // Releasing a free lease answers released: false and changes nothing.
    const again = await adminFetch(`/admin/leases/${ROLL_UP}`, { method: "DELETE" })
    expect(await again.json()).toMatchObject({ released: false, lease: { lastSlot: slot, status: "free" } })
    expect(await leaseRow(ROLL_UP)).toEqual({ name: ROLL_UP, last_slot: slot, lease_until: null, holder: null })
  })

  it("refuses (409) to release a lease still within its run's timeout unless forced, and changes nothing", async () => {
    const until = Date.now() + 10 * MINUTE
    await setLease("held.job", 7 * MINUTE, until, "live-run")
    for (const query of ["", "?force=false"]) {
      const body = await expectProblem(await adminFetch(`/admin/leases/held.job${query}`, { method: "DELETE" }), 409)
      expect(body.detail).toMatch(/force=true/)
    }
    expect(await leaseRow("held.job")).toEqual({
      name: "held.job",
      last_slot: 7 * MINUTE,
      lease_until: until,
      holder: "live-run",
    })
    // An expired lease's run is past its timeout: released without force.
    await setLease("held.job", 7 * MINUTE, Date.now() - MINUTE, "gone-run")
    const res = await adminFetch("/admin/leases/held.job", { method: "DELETE" })
    expect(await res.json()).toMatchObject({ released: true, lease: { holder: null } })
  })

  it("a forced release of a running job's lease still records that run's outcome when it ends", async () => {
    const { job, running, finish } = heldJob("admin.forced", "r-forced")
    const slot = new Date(Date.UTC(2026, 10, 30, 4, 0))
    const run = Jobs.run(job, slot, { env, runId: "r-forced" })
    await running
    const res = await adminFetch("/admin/leases/admin.forced?force=true", { method: "DELETE" })
    expect(await res.json()).toMatchObject({ released: true })
    finish()
    expect(await run).toMatchObject({ status: "ran", runId: "r-forced" })
    const row = await env.DB.prepare("SELECT * FROM jobs_leases WHERE name = ?").bind("admin.forced").first()
    expect(row).toMatchObject({ last_slot: slot.getTime(), holder: null, lease_until: null, last_run_id: "r-forced" })
    expect(row?.last_outcome).toBe("ran")
    expect(JSON.parse(row?.run_history as string)).toEqual([expect.objectContaining({ runId: "r-forced" })])
  })

  it("records a force-released run's outcome though a replica's clock a day ahead fired first: no claim lands below last_slot", async () => {
    const { job, running, finish } = heldJob("admin.forced-ahead", "r-forced")
    const slot = slotOf(Date.now()).getTime()
    expect(await Jobs.run(job, new Date(slot - MINUTE), { env, runId: "r-before" })).toMatchObject({ status: "ran" })
    // A replica a day ahead fires tomorrow's slot: not yet due by D1's clock, so last_slot stays where it was.
    const ahead = await Jobs.run(job, new Date(slot + DAY), { env, runId: "r-ahead" })
    expect(ahead).toMatchObject({ status: "skipped", reason: "slot taken" })
    const run = Jobs.run(job, new Date(slot), { env, runId: "r-forced" })
    await running
    expect(await leaseRow(job.name)).toMatchObject({ last_slot: slot, holder: "r-forced" })
    const res = await adminFetch(`/admin/leases/${job.name}?force=true`, { method: "DELETE" })
    expect(await res.json()).toMatchObject({ released: true })
    finish()
    expect(await run).toMatchObject({ status: "ran", runId: "r-forced" })
    const row = await env.DB.prepare("SELECT * FROM jobs_leases WHERE name = ?").bind(job.name).first()
    expect(row).toMatchObject({ last_slot: slot, holder: null, last_run_id: "r-forced", last_outcome: "ran" })
    const history = JSON.parse(row?.run_history as string) as Array<{ runId: string }>
    expect(history.map((entry) => entry.runId)).toEqual(["r-before", "r-forced"])
  })

  it("releases an undeclared job's lease too", async () => {
    await setLease("ghost.stuck", 5 * MINUTE, Date.now() + MINUTE, "ghost-holder")
    const res = await adminFetch("/admin/leases/ghost.stuck?force=true", { method: "DELETE" })
    expect(await res.json()).toMatchObject({ released: true, lease: { lastSlot: 5 * MINUTE, holder: null } })
  })
})

describe("POST /admin/jobs/:name/run", () => {
  it("answers 404 for a job not given to admin, naming the API rather than a file of the example app", async () => {
    const body = await expectProblem(await runNow("billing.nobody"), 404, "name")
    expect(body.detail).toBe('no job "billing.nobody" is among the jobs given to `admin`')
  })

  it("runs the current minute's slot once; a second run-now in that minute is 409", async () => {
    await awayFromMinuteEdge()
    await dropLease(ROLL_UP)
    const slot = slotOf(Date.now()).getTime()
    const res = await runNow(ROLL_UP)
    expect(res.status).toBe(200)
    const ran = await json(res)
    expect(ran).toEqual({ job: ROLL_UP, slot, status: "ran", runId: expect.any(String), ms: expect.any(Number) })
    expect(await leaseRow(ROLL_UP)).toEqual({ name: ROLL_UP, last_slot: slot, lease_until: null, holder: null })
    expect(logs.of("job.run")).toEqual([
      expect.objectContaining({ job: ROLL_UP, runId: ran.runId, outcome: "ran", slot: new Date(slot).toISOString() }),
    ])

    await expectProblem(await runNow(ROLL_UP), 409)
    expect(await leaseRow(ROLL_UP)).toEqual({ name: ROLL_UP, last_slot: slot, lease_until: null, holder: null })
    expect(logs.of("job.run").filter((line) => line.outcome === "ran")).toHaveLength(1)

    // The job's view shows the run its release recorded, once: the refused run-now recorded nothing.
    const shown = (await jobsView()).jobs.find((job) => job.name === ROLL_UP) as unknown as JobAnswer
    const record = { slot, runId: ran.runId, outcome: "ran", ms: expect.any(Number), error: null }
    expect(shown.lastRun).toEqual({ ...record, finishedAt: expect.any(Number) })
    expect(shown.slots).toEqual([{ slot, status: "ran", run: shown.lastRun }])
  })

  it("refuses (409) a slot the heartbeat already ran", async () => {
    await awayFromMinuteEdge()
    await dropLease(ROLL_UP)
    const now = Date.now()
    const results = await beat(jobs, now, env)
    expect(results.find((result) => result.job === ROLL_UP)).toMatchObject({ status: "ran" })
    await expectProblem(await runNow(ROLL_UP), 409)
    expect((await leaseRow(ROLL_UP))?.last_slot).toBe(slotOf(now).getTime())
  })

  it("refuses (409) while another run holds the lease of an earlier slot", async () => {
    await awayFromMinuteEdge()
    const earlier = slotOf(Date.now()).getTime() - 2 * MINUTE
    // A lease is judged by its end and the lease written beside it (none here), never by the claimant's timeout.
    await setLease(ROLL_UP, earlier, Date.now() + MINUTE, "long-run")
    await expectProblem(await runNow(ROLL_UP), 409)
    expect(await leaseRow(ROLL_UP)).toMatchObject({ last_slot: earlier, holder: "long-run" })
  })

  it("runs a job whose cron does not name this minute (run-now is not the cron)", async () => {
    await awayFromMinuteEdge()
    await dropLease(CLOSE)
    const res = await runNow(CLOSE)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ job: CLOSE, status: "ran", slot: slotOf(Date.now()).getTime() })
  })
})

describe("streams", () => {
  beforeEach(() => resetConsumers())

  it("GET /admin/streams pages the directory by name with a cursor", async () => {
    const names = ["page-e", "page-a", "page-d", "page-b", "page-c"]
    for (const name of names) await putSchedule(name, "s")
    const directory = (await env.DB.prepare("SELECT name FROM schedule_streams ORDER BY name").all()).results.map(
      (row) => row.name as string,
    )
    expect(directory).toEqual(expect.arrayContaining(names))

    const pages: Array<{ streams: Array<{ name: string; listedAt: number }>; cursor: string | null }> = []
    let cursor: string | null = null
    do {
      const res = await adminFetch(`/admin/streams?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`)
      expect(res.status).toBe(200)
      const page = (await res.json()) as (typeof pages)[number]
      pages.push(page)
      expect(page.streams.length).toBeLessThanOrEqual(2)
      if (page.cursor !== null) expect(page.cursor).toBe(page.streams.at(-1)?.name)
      cursor = page.cursor
    } while (cursor !== null && pages.length < 50)
    const listed = pages.flatMap((page) => page.streams)
    expect(listed.map((stream) => stream.name)).toEqual(directory)
    expect(pages.length).toBeGreaterThanOrEqual(3)
    for (const stream of listed) expect(stream.listedAt).toBeGreaterThan(Date.now() - HOUR)

    // Without a limit, one page of up to 50 holds them all.
    const all = await json(await adminFetch("/admin/streams"))
    expect(all.streams.map((stream: { name: string }) => stream.name)).toEqual(directory)
    expect(all.cursor).toBeNull()
  })

  it("GET schedules filters by state and pages by id with a cursor", async () => {
    const stream = "listing"
    const ids = ["s01", "s02", "s03", "s04", "s05", "s06", "s07"]
    for (const id of ids) await putSchedule(stream, id)
    for (const id of ["s02", "s05"]) {
      expect((await adminFetch(`/admin/streams/${stream}/schedules/${id}/cancel`, { method: "POST" })).status).toBe(200)
    }
    const list = async (query: string) => {
      const res = await adminFetch(`/admin/streams/${stream}/schedules?${query}`)
      expect(res.status).toBe(200)
      return (await res.json()) as { schedules: ScheduleView[]; cursor: string | null }
    }
    const cancelled = await list("state=cancelled")
    expect(cancelled.schedules.map((s) => s.id)).toEqual(["s02", "s05"])
    expect(cancelled.schedules.every((s) => s.state === "cancelled" && s.stream === stream)).toBe(true)
    expect(cancelled.cursor).toBeNull()
    expect((await list("state=failed")).schedules).toEqual([])

    const scheduled: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await list(`state=scheduled&limit=2${cursor === null ? "" : `&cursor=${cursor}`}`)
      expect(page.schedules.length).toBeLessThanOrEqual(2)
      expect(page.schedules.every((s) => s.state === "scheduled")).toBe(true)
      scheduled.push(...page.schedules.map((s) => s.id))
      cursor = page.cursor
      pages++
    } while (cursor !== null && pages < 20)
    expect(scheduled).toEqual(["s01", "s03", "s04", "s06", "s07"])
    expect(pages).toBe(3)

    const firstThree = await list("limit=3")
    expect(firstThree.schedules.map((s) => s.id)).toEqual(["s01", "s02", "s03"])
    expect(firstThree.cursor).toBe("s03")
    expect((await list("limit=3&cursor=s03")).schedules.map((s) => s.id)).toEqual(["s04", "s05", "s06"])
  })

  it("GET one schedule returns it with its events, newest first", async () => {
    const stream = "one-schedule"
    const created = await putSchedule(stream, "r", { ...DAILY, payload: { n: 1 } })
    await adminFetch(`/admin/streams/${stream}/schedules/r/cancel`, { method: "POST" })
    await adminFetch(`/admin/streams/${stream}/schedules/r/resume`, { method: "POST" })
    await putSchedule(stream, "other")
    const res = await adminFetch(`/admin/streams/${stream}/schedules/r`)
    expect(res.status).toBe(200)
    const body = await json(res)
    expect(body.schedule).toMatchObject({
      stream,
      id: "r",
      consumer: "test.scripted",
      timing: { kind: "every", everyMs: DAY },
      payload: { n: 1 },
      state: "scheduled",
      occurrence: 1,
      nextAt: created.nextAt,
      createdAt: created.createdAt,
    })
    const events = body.events as ScheduleEvent[]
    expect(events.map((event) => event.type)).toEqual(["schedule/set", "schedule/cancelled", "schedule/set"])
    expect(events.map((event) => event.data.cause)).toEqual(["resumed", undefined, "created"])
    expect(events.every((event) => event.scheduleId === "r")).toBe(true)
    const seqs = events.map((event) => event.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a))

    // The stream's events route pages back by seq.
    const newest = await json(await adminFetch(`/admin/streams/${stream}/events?limit=2`))
    expect(newest.events).toHaveLength(2)
    expect(newest.events[0].scheduleId).toBe("other")
    const older = await json(await adminFetch(`/admin/streams/${stream}/events?before=${newest.events[1].seq}`))
    expect(older.events.map((event: { seq: number }) => event.seq)).toEqual(seqs.slice(1))
    const ofR = await json(await adminFetch(`/admin/streams/${stream}/events?scheduleId=r&limit=1`))
    expect(ofR.events).toEqual([events[0]])
  })

  it("PUT creates a schedule and lists its stream, and replaces it: same definition, new payload, new timing", async () => {
    const stream = "put-stream"
    const before = Date.now()
    const created = await putSchedule(stream, "p", { ...DAILY, payload: { v: 1 }, maxAttempts: 3 })
    expect(created).toMatchObject({
      stream,
      id: "p",
      consumer: "test.scripted",
      timing: { kind: "every", everyMs: DAY },
      payload: { v: 1 },
      maxAttempts: 3,
      state: "scheduled",
      occurrence: 1,
      attempts: 0,
      lastError: null,
      retryAt: null,
    })
    expect(created.nextAt).toBeGreaterThanOrEqual(before + DAY)
    expect(created.nextAt).toBeLessThanOrEqual(Date.now() + DAY)
    const streams = await json(await adminFetch("/admin/streams?limit=500"))
    expect(streams.streams.map((s: { name: string }) => s.name)).toContain(stream)

    const same = await putSchedule(stream, "p", { ...DAILY, payload: { v: 1 }, maxAttempts: 3 })
    expect(same).toEqual(created)

    const repaid = await putSchedule(stream, "p", { ...DAILY, payload: { v: 2 } })
    expect(repaid).toMatchObject({ payload: { v: 2 }, maxAttempts: null, nextAt: created.nextAt })

    const retimed = await putSchedule(stream, "p", {
      consumer: "test.scripted",
      cron: "0 9 * * *",
      timezone: "Europe/Paris",
    })
    expect(retimed.timing).toEqual({ kind: "cron", cron: "0 9 * * *", timezone: "Europe/Paris" })
    expect(retimed.nextAt).not.toBe(created.nextAt)
    const hour = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" })
    expect(hour.format(new Date(retimed.nextAt))).toBe("09:00")

    const events = (await json(await adminFetch(`/admin/streams/${stream}/schedules/p`))).events
    expect(events.map((event: { data: { cause: string } }) => event.data.cause)).toEqual([
      "retimed",
      "updated",
      "created",
    ])
    expect((await streamStorage(stream)).schedules).toHaveLength(1)
  })

  it("cancel, then a second cancel is 409; resume, then a second resume is 409; trigger on a cancelled one is 409", async () => {
    const stream = "lifecycle"
    const created = await putSchedule(stream, "c")
    const post = (verb: string) => adminFetch(`/admin/streams/${stream}/schedules/c/${verb}`, { method: "POST" })

    const cancelled = await post("cancel")
    expect(cancelled.status).toBe(200)
    expect((await json(cancelled)).schedule).toMatchObject({ state: "cancelled", occurrence: 1 })
    const stored = await streamStorage(stream)
    await expectProblem(await post("cancel"), 409)
    await expectProblem(await post("trigger"), 409)
    expect(await streamStorage(stream)).toEqual(stored)

    const resumed = await post("resume")
    expect(resumed.status).toBe(200)
    expect((await json(resumed)).schedule).toMatchObject({
      state: "scheduled",
      occurrence: 1,
      nextAt: created.nextAt,
      attempts: 0,
    })
    await expectProblem(await post("resume"), 409)
  })

  it("DELETE removes a cancelled schedule (and then forgets its empty stream); a scheduled one is 409", async () => {
    const stream = "remove-stream"
    await putSchedule(stream, "r")
    const path = `/admin/streams/${stream}/schedules/r`
    const stored = await streamStorage(stream)
    await expectProblem(await adminFetch(path, { method: "DELETE" }), 409)
    expect(await streamStorage(stream)).toEqual(stored)

    expect((await adminFetch(`${path}/cancel`, { method: "POST" })).status).toBe(200)
    const res = await adminFetch(path, { method: "DELETE" })
    expect(res.status).toBe(200)
    expect(await json(res)).toMatchObject({ removed: true, schedule: { id: "r", state: "cancelled" } })
    expect((await streamStorage(stream)).schedules).toEqual([])
    // The stream held nothing more, so the directory forgot it: its routes answer 404 now.
    await expectProblem(await adminFetch(path, { method: "DELETE" }), 404, "stream")
    await expectProblem(await adminFetch(`/admin/streams/${stream}/schedules`), 404, "stream")
  })

  it("trigger delivers the current occurrence once, now, and leaves the cadence where it was", async () => {
    const stream = "trigger-stream"
    const created = await putSchedule(stream, "t", { consumer: "test.scripted", every: "1 hour" })
    expect(created.nextAt).toBeGreaterThan(Date.now() + HOUR - MINUTE)

    const res = await adminFetch(`/admin/streams/${stream}/schedules/t/trigger`, { method: "POST" })
    expect(res.status).toBe(200)
    const triggered = (await json(res)).schedule
    const triggeredAt = triggered.updatedAt as number
    expect(triggered).toMatchObject({ state: "scheduled", occurrence: 1 })
    expect(triggered.nextAt).toBeLessThanOrEqual(Date.now())

    // The stream's alarm (now due) delivers it; runDurableObjectAlarm runs it if it has not fired yet.
    await runDurableObjectAlarm(streamStub(stream))
    await until(() => seen.length >= 1, "the triggered delivery")
    const delivery = seen[0]?.delivery
    expect(delivery).toMatchObject({
      stream,
      scheduleId: "t",
      occurrence: 1,
      attempt: 1,
      idempotencyKey: created.idempotencyKey,
    })

    const after = (await json(await adminFetch(`/admin/streams/${stream}/schedules/t`))).schedule
    expect(after).toMatchObject({ state: "scheduled", occurrence: 2, attempts: 0 })
    // The next occurrence is on the original cadence (created + 2 h), not trigger time + 1 h.
    expect(after.nextAt).toBe(created.nextAt + HOUR)
    expect(after.nextAt).not.toBe(triggeredAt + HOUR)

    // Running the alarm again (now set an hour and more ahead) delivers nothing more.
    await runDurableObjectAlarm(streamStub(stream))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seen).toHaveLength(1)
    const fired = (await json(await adminFetch(`/admin/streams/${stream}/events?scheduleId=t`))).events.filter(
      (event: { type: string }) => event.type === "schedule/fired",
    )
    expect(fired).toHaveLength(1)
    expect(fired[0].data).toMatchObject({ occurrence: 1, nextAt: created.nextAt + HOUR })
  })
})
