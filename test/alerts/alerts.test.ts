import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { SWITCH_ID } from "../../src/infra/alerts/dead-mans-switch.ts"
import { type AlertNotice, type AlertRule, Alerts } from "../../src/infra/alerts/index.ts"
import { noticeId } from "../../src/infra/alerts/notice.ts"
import { database } from "../../src/infra/db/index.ts"
import { Schedules } from "../../src/infra/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { pauseJob, resumeJob } from "../../src/infra/jobs/protocol/pauses.ts"
import { recordNextEligible } from "../../src/infra/schedules/directory/stream-directory.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, stubOf, tickAt } from "../support/streams.ts"

const logs = captureLogs()
const MINUTE = 60_000
let day = 0
let names = 0

// One alerts job a database: a test's job would resolve the incidents of rules another test declared.
beforeEach(async () => {
  resetConsumers()
  await env.DB.exec("DELETE FROM alert_incidents")
})

/**
 * An alerts job over `rules` with its own alert stream, delivering to the scripted test consumer, run end to end:
 * `at(now)` runs the alerts job for the slot `now` through Jobs.run (the claim's clock injected), then lets the
 * alert stream deliver what is due a second later, as its alarm would. Each test has a day of its own.
 */
function alerting(rules: AlertRule[]) {
  const stream = `alerts-${++names}`
  const job = Alerts.job({ consumer: "test.scripted", stream, rules })
  // Within the 10 years ahead a schedule's `at` may be, and past any real alarm of this run.
  const start = Date.UTC(2030, 5, 1 + ++day, 3, 0)
  const at = async (now: number) => {
    const result = await Jobs.run(job, new Date(now), { env, now: () => now + 1_000 })
    expect(
      result.status,
      `the alerts job at ${new Date(now).toISOString()}: ${JSON.stringify(logs.of("job.run").at(-1))}`,
    ).toBe("ran")
    await tickAt(stubOf(stream), now + 2_000)
  }
  /** The notices delivered so far, as [status, rule, subject], in order. */
  const notices = (subject?: string) =>
    seen
      .filter(({ delivery }) => delivery.stream === stream)
      .map(({ delivery }) => delivery.payload as AlertNotice)
      .filter((notice) => subject === undefined || notice.subject === subject)
      .map((notice) => [notice.status, notice.rule, notice.subject])
  return { stream, start, at, notices }
}

let jobs = 0
const flaky = () => {
  const state = { failing: false }
  const job = Jobs.make({
    name: `alerts.job-${++jobs}`,
    cron: "* * * * *",
    exclusive: true,
    timeout: 1_000,
    run: () => {
      if (state.failing) throw new Error("the usage store is down")
    },
  })
  const run = async (slot: number, failing = false) => {
    state.failing = failing
    await Jobs.run(job, new Date(slot), { env, now: () => slot + 500 })
  }
  return { job, run }
}

describe("an alert rule fires once per incident and once more when it resolves, delivered through the alert stream", () => {
  it("job failed K slots in a row", async () => {
    const { job, run } = flaky()
    const { start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 2 })])
    const rule = `job-failed.${job.name}`
    await run(t)
    await run(t + MINUTE, true)
    await at(t + MINUTE)
    expect(notices()).toEqual([])
    await run(t + 2 * MINUTE, true)
    // A run of the alerts job's own slot is judged the next minute, once surely committed (notices.test.ts).
    await at(t + 2 * MINUTE)
    expect(notices()).toEqual([])
    await run(t + 3 * MINUTE, true)
    await at(t + 3 * MINUTE)
    expect(notices()).toEqual([["firing", rule, job.name]])
    // Still failing: no second notice.
    await run(t + 4 * MINUTE, true)
    await at(t + 4 * MINUTE)
    expect(notices()).toEqual([["firing", rule, job.name]])
    await run(t + 5 * MINUTE)
    await at(t + 5 * MINUTE)
    await at(t + 6 * MINUTE)
    expect(notices()).toEqual([
      ["firing", rule, job.name],
      ["resolved", rule, job.name],
    ])
    const firing = seen[0]?.delivery
    expect(firing?.payload).toMatchObject({ summary: expect.stringContaining("the usage store is down") })
    // A notice is a delivery like any other: its idempotency key names the alert stream and the notice.
    expect(firing?.idempotencyKey).toMatch(/^schedule:alerts-\d+\/job-failed-[0-9a-f]{16}-[0-9a-z]+-firing@/)
  })

  it("missed K slots", async () => {
    const { job, run } = flaky()
    const { start: t, at, notices } = alerting([Alerts.jobMissed(job, { slots: 3 })])
    const rule = `job-missed.${job.name}`
    await run(t)
    // No run takes t+1 .. t+3.
    await at(t + 3 * MINUTE)
    expect(notices()).toEqual([])
    await at(t + 4 * MINUTE)
    await at(t + 5 * MINUTE)
    expect(notices()).toEqual([["firing", rule, job.name]])
    await run(t + 6 * MINUTE)
    await at(t + 6 * MINUTE)
    await at(t + 7 * MINUTE)
    expect(notices()).toEqual([
      ["firing", rule, job.name],
      ["resolved", rule, job.name],
    ])
  })

  it("missed K slots: never for slots a pause skipped, while paused or after it is resumed", async () => {
    const { job, run } = flaky()
    const { start: t, at, notices } = alerting([Alerts.jobMissed(job, { slots: 3 })])
    await run(t)
    await pauseJob(database(env.DB), { job: job.name, reason: "maintenance", by: null, now: t + 30_000 })
    await at(t + 4 * MINUTE)
    await resumeJob(database(env.DB), { job: job.name, by: null, now: t + 4 * MINUTE + 30_000 })
    await at(t + 5 * MINUTE)
    expect(notices()).toEqual([])
  })

  it("the heartbeat is late: a dead man's switch the stream's Durable Object alarm fires, not the heartbeat", async () => {
    const { stream, start: t, at, notices } = alerting([Alerts.heartbeatLate({ after: "3 minutes" })])
    await at(t)
    await at(t + MINUTE)
    expect(notices()).toEqual([])
    // The heartbeat stops: nothing runs the alerts job any more. Only the stream's alarm is left, set for the switch.
    const stub = stubOf(stream)
    const alarm = await alarmOf(stream)
    // Armed by the database's now at the last run (the claim's clock, a second past its slot), not by the slot.
    expect(alarm).toBe(t + 4 * MINUTE + 1_000)
    await stub.setNow(alarm ?? 0)
    expect(await runDurableObjectAlarm(objectOf(stream))).toBe(true)
    expect(notices()).toEqual([["firing", "heartbeat-late", "heartbeat"]])
    await stub.setNow(t + 5 * MINUTE)
    await runDurableObjectAlarm(objectOf(stream))
    expect(notices()).toEqual([["firing", "heartbeat-late", "heartbeat"]])
    // The heartbeat is back: one resolved notice, and the switch is armed again.
    await at(t + 6 * MINUTE)
    await at(t + 7 * MINUTE)
    expect(notices()).toEqual([
      ["firing", "heartbeat-late", "heartbeat"],
      ["resolved", "heartbeat-late", "heartbeat"],
    ])
    const armed = await Schedules.stream(env.SCHEDULES, stream).get(SWITCH_ID)
    expect(armed).toMatchObject({ state: "scheduled", nextAt: t + 10 * MINUTE + 1_000, occurrence: 2 })
  })

  it("a schedule went failed", async () => {
    const watched = openStream("watched")
    const { start: t, at, notices } = alerting([Alerts.scheduleFailed({ stream: watched.name })])
    const rule = `schedule-failed.${watched.name}`
    await watched.upsert({ id: "hook", consumer: "test.scripted", every: "1 minute" }, t - MINUTE)
    script.set("hook", ["terminal"])
    await watched.tick(t)
    expect((await Schedules.stream(env.SCHEDULES, watched.name).get("hook"))?.state).toBe("failed")
    await at(t)
    await at(t + MINUTE)
    expect(notices()).toEqual([["firing", rule, `${watched.name}/hook`]])
    await watched.resume("hook", t + 2 * MINUTE)
    await at(t + 2 * MINUTE)
    await at(t + 3 * MINUTE)
    expect(notices()).toEqual([
      ["firing", rule, `${watched.name}/hook`],
      ["resolved", rule, `${watched.name}/hook`],
    ])
  })

  it("a stream is overdue", async () => {
    const { start: t, at, notices } = alerting([Alerts.streamOverdue({ after: "10 minutes" })])
    const late = `late-stream-${t}`
    // Its alarm was due long ago and nothing delivered it: the directory still says so.
    await recordNextEligible(env.DB, late, Date.UTC(2000, 0, 1), t)
    await at(t)
    await at(t + MINUTE)
    expect(notices(late)).toEqual([["firing", "stream-overdue", late]])
    await recordNextEligible(env.DB, late, t + 60 * MINUTE, t)
    await at(t + 2 * MINUTE)
    await at(t + 3 * MINUTE)
    expect(notices(late)).toEqual([
      ["firing", "stream-overdue", late],
      ["resolved", "stream-overdue", late],
    ])
  })

  it("is retried by the stream when its consumer fails, under the same key, and sent once", async () => {
    const { job, run } = flaky()
    const { stream, start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 1 })])
    const rule = `job-failed.${job.name}`
    // Judged the minute after its slot, opened at the database's now: a second past that minute (the claim's clock).
    const opened = t + MINUTE
    const firing = { kind: "job-failed", rule, subject: job.name, openedAt: opened + 1_000, status: "firing" } as const
    script.set(noticeId(firing), ["retry"])
    await run(t, true)
    await at(opened)
    // The first attempt was answered with a retry; the stream delivers it again after its backoff (1 s).
    await tickAt(stubOf(stream), opened + 4_000)
    await at(opened + MINUTE)
    const attempts = seen.filter(({ delivery }) => delivery.stream === stream).map(({ delivery }) => delivery)
    expect(attempts.map((delivery) => delivery.attempt)).toEqual([1, 2])
    expect(new Set(attempts.map((delivery) => delivery.idempotencyKey)).size).toBe(1)
    expect(notices()).toEqual([
      ["firing", rule, job.name],
      ["firing", rule, job.name],
    ])
    // The notice's history is the stream's: its events say it failed once and was then delivered.
    const events = await Schedules.stream(env.SCHEDULES, stream).events({ scheduleId: attempts[0]?.scheduleId })
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["schedule/failed", "schedule/fired"]))
  })

  it("refuses a rule it cannot judge, naming the field, when the module loads", () => {
    const { job } = flaky()
    expect(() => Alerts.jobFailed(job, { slots: 0 })).toThrow(/slots must be a whole number from 1 to 20/)
    expect(() => Alerts.jobMissed(job, { slots: 21 })).toThrow(/slots must be a whole number from 1 to 20/)
    expect(() => Alerts.heartbeatLate({ after: "30 seconds" })).toThrow(/after must be from 2 minutes to 1 day/)
    expect(() => Alerts.scheduleFailed({ stream: "a/b" })).toThrow(/stream must match/)
    const lax = Jobs.make({ name: "alerts.lax", cron: "* * * * *", exclusive: false, timeout: 1_000, run: () => {} })
    expect(() => Alerts.jobFailed(lax, { slots: 1 })).toThrow(/not exclusive/)
    expect(() => Alerts.job({ consumer: "test.scripted", rules: [] })).toThrow(/rules must list at least one rule/)
    const twice = Alerts.jobFailed(job, { slots: 1 })
    expect(() => Alerts.job({ consumer: "test.scripted", rules: [twice, twice] })).toThrow(/declared twice/)
  })
})

/** The stream's alarm time, read inside its object. */
const objectOf = (name: string) => env.SCHEDULES.get(env.SCHEDULES.idFromName(name))
const alarmOf = (name: string) => runInDurableObject(objectOf(name), (_, state) => state.storage.getAlarm())
