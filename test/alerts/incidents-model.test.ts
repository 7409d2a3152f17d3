import { env, runDurableObjectAlarm } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { type AlertNotice, type AlertRule, Alerts } from "../../src/infra/alerts/index.ts"
import { database } from "../../src/infra/db/index.ts"
import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { pauseJob, resumeJob } from "../../src/infra/jobs/protocol/pauses.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { stubOf, tickAt } from "../support/streams.ts"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const AFTER = 3 * MINUTE

/**
 * The oracle, a few lines anyone can check: for each rule and subject the notices alternate firing, resolved,
 * firing …; a resolved notice names the opening of the firing it ends, and never resolves before it opened.
 * `settled`: every incident ended with its resolved notice. Answers the faults found, none when all hold.
 */
function incidentFaults(notices: readonly AlertNotice[], settled: boolean): string[] {
  const faults: string[] = []
  const open = new Map<string, AlertNotice>()
  for (const notice of notices) {
    const key = `${notice.rule} ${notice.subject}`
    const firing = open.get(key)
    if (notice.status === "firing") {
      if (firing) faults.push(`${key}: fired twice (opened ${firing.openedAt}, then ${notice.openedAt})`)
      open.set(key, notice)
      continue
    }
    if (!firing) faults.push(`${key}: resolved without firing`)
    else if (notice.openedAt !== firing.openedAt) faults.push(`${key}: resolved another opening`)
    if ((notice.resolvedAt ?? Number.NEGATIVE_INFINITY) < notice.openedAt)
      faults.push(`${key}: resolved before it opened`)
    open.delete(key)
  }
  if (settled) for (const key of open.keys()) faults.push(`${key}: never resolved`)
  return faults
}

/** A small seeded generator (mulberry32): each seed is one reproducible timeline. */
function random(seed: number) {
  let a = seed
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
}

beforeEach(async () => {
  resetConsumers()
  await env.DB.exec("DELETE FROM alert_incidents")
})

describe("the alerts' incidents against the oracle, whatever the rules, pauses, outages and catch-up beats", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: each incident opens and resolves exactly once, and the switch fires only when nothing ran the alerts job`, async () => {
      const pick = random(seed)
      const stream = `model-${seed}`
      const state = { failing: false, paused: false }
      const job = Jobs.make({
        name: `model.job-${seed}`,
        cron: "* * * * *",
        exclusive: true,
        timeout: 1_000,
        run: () => {
          if (state.failing) throw new Error("down")
        },
      })
      const ruleSets: AlertRule[][] = [
        [Alerts.heartbeatLate({ after: "3 minutes" }), Alerts.jobFailed(job, { slots: 1 })],
        [Alerts.jobFailed(job, { slots: 1 })],
        [Alerts.heartbeatLate({ after: "3 minutes" })],
        [Alerts.scheduleFailed({ stream: `model-quiet-${seed}` })],
      ]
      let rules = ruleSets[0] as AlertRule[]
      // Years apart: the alerts job's lease row is shared, and a seed's outages may add up to most of a year.
      let clock = Date.UTC(2034 + 2 * seed, 0, 1, 3, 0)
      // When the alerts job last ran with a heartbeat-late rule, by the database's clock: the switch's only witness.
      let lastRun = clock
      const notices = () =>
        seen.filter(({ delivery }) => delivery.stream === stream).map(({ delivery }) => delivery.payload as AlertNotice)
      const firings = () => notices().filter((notice) => notice.kind === "heartbeat-late" && notice.status === "firing")
      const beatAt = async (slot: number, now: number) => {
        const alerts = Alerts.job({ consumer: "test.scripted", stream, rules })
        const ran = await beat([alerts, job], slot, env, { now: () => now })
        if (ran.some((result) => result.job === alerts.name && result.status === "ran")) {
          if (rules.some((rule) => rule.kind === "heartbeat-late")) lastRun = now
        }
        await tickAt(stubOf(stream), now + 1_000)
      }
      /** Only the alert stream's alarm runs, at `now`: a switch that fires must have been left alone for `after`. */
      const alarmAt = async (now: number) => {
        const before = firings().length
        await stubOf(stream).setNow(now)
        await runDurableObjectAlarm(env.SCHEDULES.get(env.SCHEDULES.idFromName(stream)))
        for (const firing of firings().slice(before)) {
          expect(
            firing.openedAt - lastRun,
            `seed ${seed}: a switch fired ${firing.openedAt - lastRun} ms after a run`,
          ).toBe(AFTER)
        }
      }
      const slotOf = (ms: number) => ms - (ms % MINUTE)
      for (let step = 0; step < 40; step++) {
        const action = pick(8)
        if (action <= 2) {
          clock += MINUTE
          await beatAt(slotOf(clock), clock + pick(20_000))
        } else if (action === 3) {
          // The heartbeat stops for a while, then fires the minutes it missed at once, oldest first.
          const gap = 2 + pick(6)
          const from = slotOf(clock) + MINUTE
          clock += gap * MINUTE
          await alarmAt(clock)
          for (let i = 0; i < gap; i++) await beatAt(from + i * MINUTE, clock + i)
        } else if (action === 4) {
          // An outage, some longer than the alert stream's retention.
          clock += [10 * MINUTE, 2 * 60 * MINUTE, 9 * DAY][pick(3)] as number
          await alarmAt(clock - 1_000)
          await alarmAt(clock)
        } else if (action === 5) {
          rules = ruleSets[pick(ruleSets.length)] as AlertRule[]
        } else if (action === 6) {
          state.paused = !state.paused
          const db = database(env.DB)
          if (state.paused) await pauseJob(db, { job: "slotwise.alerts", reason: "quiet", by: null, now: clock })
          else await resumeJob(db, { job: "slotwise.alerts", by: null, now: clock })
        } else state.failing = !state.failing
        expect(incidentFaults(notices(), false), `seed ${seed}, step ${step}`).toEqual([])
      }
      // Settle: resumed, healed, the heartbeat running, and a rule set of the seed's (a rule it lacks was removed
      // from the code: its incidents must resolve too).
      if (state.paused) await resumeJob(database(env.DB), { job: "slotwise.alerts", by: null, now: clock })
      state.failing = false
      rules = ruleSets[seed % ruleSets.length] as AlertRule[]
      for (let i = 0; i < 3; i++) {
        clock += MINUTE
        await beatAt(slotOf(clock), clock + 1_000)
      }
      expect(incidentFaults(notices(), true), `seed ${seed}`).toEqual([])
      expect(notices().length, `seed ${seed}: the timeline opened some incident`).toBeGreaterThan(0)
    })
  }

  it("the oracle catches a planted fault: a second firing, a resolve of nothing, a resolve before the opening, an incident left open", () => {
    const firing = (openedAt: number): AlertNotice => ({
      rule: "heartbeat-late",
      kind: "heartbeat-late",
      subject: "heartbeat",
      about: "the heartbeat",
      status: "firing",
      summary: "",
      cause: "",
      check: "",
      link: null,
      openedAt,
      resolvedAt: null,
    })
    const resolved = (openedAt: number, resolvedAt: number): AlertNotice => ({
      ...firing(openedAt),
      status: "resolved",
      resolvedAt,
    })
    expect(incidentFaults([firing(1), resolved(1, 2)], true)).toEqual([])
    expect(incidentFaults([firing(1), firing(2)], false)).toEqual([expect.stringMatching(/fired twice/)])
    expect(incidentFaults([resolved(1, 2)], false)).toEqual([expect.stringMatching(/resolved without firing/)])
    expect(incidentFaults([firing(5), resolved(5, 3)], false)).toEqual([expect.stringMatching(/before it opened/)])
    expect(incidentFaults([firing(5), resolved(4, 6)], false)).toEqual([expect.stringMatching(/another opening/)])
    expect(incidentFaults([firing(1)], true)).toEqual([expect.stringMatching(/never resolved/)])
  })
})
