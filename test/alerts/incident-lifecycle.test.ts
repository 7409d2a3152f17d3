import { env, runDurableObjectAlarm } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { SWITCH_ID } from "../../src/infra/alerts/dead-mans-switch.ts"
import { type AlertNotice, type AlertRule, Alerts } from "../../src/infra/alerts/index.ts"
import { database } from "../../src/infra/db/index.ts"
import { Schedules } from "../../src/infra/index.ts"
import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { pauseJob, resumeJob } from "../../src/infra/jobs/protocol/pauses.ts"
import { DEFAULT_RETENTION_MS } from "../../src/infra/schedules/contract/limits.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { stubOf, tickAt } from "../support/streams.ts"

const logs = captureLogs()
const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
let month = 0
let names = 0

// One alerts job a database: a test's job would resolve the incidents of rules another test declared.
beforeEach(async () => {
  resetConsumers()
  await env.DB.exec("DELETE FROM alert_incidents")
})

/**
 * The alerts job of one alert stream, redeployed with whatever rules a step names: `at(slot, { now, rules })`
 * runs it for `slot` with the database's clock at `now` (a catch-up beat has `now` well past its slot), then
 * lets the alert stream deliver what is due at `now` plus a second. Each test has a month of its own.
 */
function alerting(initial: AlertRule[]) {
  const stream = `switch-${++names}`
  const start = Date.UTC(2031, ++month, 1, 3, 0)
  const jobOf = (rules: AlertRule[]) => Alerts.job({ consumer: "test.scripted", stream, rules })
  const at = async (slot: number, options: { now?: number; rules?: AlertRule[] } = {}) => {
    const now = options.now ?? slot + 1_000
    const result = await Jobs.run(jobOf(options.rules ?? initial), new Date(slot), { env, now: () => now })
    expect(result.status, JSON.stringify(logs.of("job.run").at(-1))).toBe("ran")
    await tickAt(stubOf(stream), now + 1_000)
  }
  const payloads = (subject?: string) =>
    seen
      .filter(({ delivery }) => delivery.stream === stream)
      .map(({ delivery }) => delivery.payload as AlertNotice)
      .filter((notice) => subject === undefined || notice.subject === subject)
  const notices = (subject?: string) => payloads(subject).map((notice) => [notice.status, notice.rule])
  const theSwitch = () => Schedules.stream(env.SCHEDULES, stream).get(SWITCH_ID)
  /** The heartbeat stopped: only the alert stream's alarm runs, at `now`. */
  const alarmAt = async (now: number) => {
    await stubOf(stream).setNow(now)
    await runDurableObjectAlarm(env.SCHEDULES.get(env.SCHEDULES.idFromName(stream)))
  }
  return { stream, start, jobOf, at, notices, payloads, theSwitch, alarmAt }
}

const late = () => Alerts.heartbeatLate({ after: "3 minutes" })
const failing = () =>
  Jobs.make({
    name: `switch.job-${++names}`,
    cron: "* * * * *",
    exclusive: true,
    timeout: 1_000,
    run: () => {
      throw new Error("the usage store is down")
    },
  })

describe("the dead man's switch is armed and judged by the database's now", () => {
  it("never fires while the alerts job runs each minute for past slots (a catch-up, wrangler dev)", async () => {
    const { start: t, at, notices, theSwitch } = alerting([late()])
    // Ten past minutes fired at once, 20 minutes after the first: the database's clock is at t + 20 minutes.
    for (let minute = 0; minute < 10; minute++) await at(t + minute * MINUTE, { now: t + 20 * MINUTE + minute })
    expect(notices()).toEqual([])
    expect(await theSwitch()).toMatchObject({ state: "scheduled", nextAt: t + 23 * MINUTE + 9 })
  })

  it("resolves once, never before it opened, when the heartbeat comes back", async () => {
    const { start: t, at, payloads, alarmAt } = alerting([late()])
    await at(t)
    await alarmAt(t + 10 * MINUTE)
    // The heartbeat is back, and catches up on the minutes it missed, oldest first.
    for (let minute = 1; minute <= 5; minute++) await at(t + minute * MINUTE, { now: t + 11 * MINUTE + minute })
    await at(t + 12 * MINUTE)
    const seenNotices = payloads()
    expect(seenNotices.map((notice) => notice.status)).toEqual(["firing", "resolved"])
    const [firing, resolved] = seenNotices as [AlertNotice, AlertNotice]
    expect(resolved.openedAt).toBe(firing.openedAt)
    expect(resolved.resolvedAt).toBeGreaterThanOrEqual(firing.openedAt)
  })

  it("resolves after an outage longer than the alert stream keeps the delivered switch", async () => {
    const { start: t, at, notices, alarmAt, theSwitch } = alerting([late()])
    await at(t)
    await alarmAt(t + 4 * MINUTE)
    expect(notices()).toEqual([["firing", "heartbeat-late"]])
    // Eight days without a heartbeat: the stream sweeps the delivered switch past its retention.
    await alarmAt(t + DEFAULT_RETENTION_MS + DAY)
    expect(await theSwitch()).toBeUndefined()
    await at(t + 8 * DAY)
    await at(t + 8 * DAY + MINUTE)
    expect(notices()).toEqual([
      ["firing", "heartbeat-late"],
      ["resolved", "heartbeat-late"],
    ])
    expect(await theSwitch()).toMatchObject({ state: "scheduled", nextAt: t + 8 * DAY + 4 * MINUTE + 1_000 })
  })
})

describe("a heartbeat-late rule removed from the code", () => {
  it("disarms its switch: no notice while the alerts job keeps running", async () => {
    const job = failing()
    const { start: t, at, notices, theSwitch } = alerting([late(), Alerts.jobFailed(job, { slots: 1 })])
    await at(t)
    await at(t + MINUTE)
    const without = [Alerts.jobFailed(job, { slots: 1 })]
    for (let minute = 2; minute < 10; minute++) await at(t + minute * MINUTE, { rules: without })
    expect(notices("heartbeat")).toEqual([])
    expect(await theSwitch()).toBeUndefined()
  })

  it("resolves a switch that fired with one notice that says the rule was removed", async () => {
    const job = failing()
    const { start: t, at, notices, payloads, alarmAt, theSwitch } = alerting([late()])
    await at(t)
    await alarmAt(t + 5 * MINUTE)
    const without = [Alerts.jobFailed(job, { slots: 1 })]
    for (let minute = 6; minute < 10; minute++) await at(t + minute * MINUTE, { rules: without })
    expect(notices("heartbeat")).toEqual([
      ["firing", "heartbeat-late"],
      ["resolved", "heartbeat-late"],
    ])
    expect(payloads("heartbeat")[1]?.summary).toMatch(/removed/)
    expect(await theSwitch()).toBeUndefined()
  })
})

describe("the alerts job paused", () => {
  it("fires a notice that says the alerts job may be paused, and resolves once, naming the pause, when resumed", async () => {
    const { start: t, jobOf, notices, payloads, stream, alarmAt } = alerting([late()])
    const job = jobOf([late()])
    const beatAt = async (slot: number) => {
      await beat([job], slot, env, { now: () => slot + 1_000 })
      await tickAt(stubOf(stream), slot + 2_000)
    }
    await beatAt(t)
    await pauseJob(database(env.DB), { job: job.name, reason: "quiet during the migration", by: null, now: t + 30_000 })
    for (let minute = 1; minute <= 6; minute++) await beatAt(t + minute * MINUTE)
    await alarmAt(t + 6 * MINUTE + 5_000)
    expect(notices()).toEqual([["firing", "heartbeat-late"]])
    expect(payloads()[0]?.summary).toMatch(/paused/)
    await resumeJob(database(env.DB), { job: job.name, by: null, now: t + 7 * MINUTE + 30_000 })
    for (let minute = 8; minute <= 10; minute++) await beatAt(t + minute * MINUTE)
    expect(notices()).toEqual([
      ["firing", "heartbeat-late"],
      ["resolved", "heartbeat-late"],
    ])
    expect(payloads()[1]?.summary).toMatch(/quiet during the migration/)
  })
})

describe("any other rule removed from the code", () => {
  it("resolves its open incident with one notice that says so", async () => {
    const job = failing()
    const rule = Alerts.jobFailed(job, { slots: 1 })
    const { start: t, at, notices, payloads } = alerting([rule])
    await Jobs.run(job, new Date(t), { env, now: () => t + 500 })
    // A run is judged the minute after its slot, once its record is surely committed.
    await at(t + MINUTE)
    expect(notices(job.name)).toEqual([["firing", rule.id]])
    // Still failing, but no longer watched: the next deploy has another rule only.
    for (let minute = 2; minute < 5; minute++) {
      await Jobs.run(job, new Date(t + minute * MINUTE), { env, now: () => t + minute * MINUTE + 500 })
      await at(t + minute * MINUTE, { rules: [Alerts.streamOverdue({ after: "1 day" })] })
    }
    expect(notices(job.name)).toEqual([
      ["firing", rule.id],
      ["resolved", rule.id],
    ])
    expect(payloads(job.name)[1]?.summary).toMatch(/removed/)
  })
})

describe("the alert stream renamed", () => {
  it("disarms the switch in the old stream, so it never fires there, and arms it in the new one", async () => {
    const { start: t, stream, at, notices, theSwitch } = alerting([late()])
    await at(t)
    const renamed = `${stream}-renamed`
    const job = Alerts.job({ consumer: "test.scripted", stream: renamed, rules: [late()] })
    for (let minute = 1; minute < 8; minute++) {
      const slot = t + minute * MINUTE
      expect((await Jobs.run(job, new Date(slot), { env, now: () => slot + 1_000 })).status).toBe("ran")
      await tickAt(stubOf(stream), slot + 2_000)
      await tickAt(stubOf(renamed), slot + 2_000)
    }
    expect(notices()).toEqual([])
    expect(await theSwitch()).toBeUndefined()
    const moved = await Schedules.stream(env.SCHEDULES, renamed).get(SWITCH_ID)
    expect(moved).toMatchObject({ state: "scheduled", nextAt: t + 10 * MINUTE + 1_000 })
  })
})
