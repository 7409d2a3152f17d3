import { env, runDurableObjectAlarm } from "cloudflare:test"
import { expect } from "vitest"
import { type AlertNotice, type AlertRule, Alerts } from "../../src/infra/alerts/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { seen } from "./consumers.ts"
import { stubOf, tickAt } from "./streams.ts"

/**
 * One test file's alerts harness. `alerting(rules)` is the alerts job of one alert stream: `at(slot)` runs it for
 * `slot` with the database's clock a second past it (`now`), then ticks the alert stream every `tickMs` over the
 * next `spanMs` (a batch a tick, four ticks at each time, so a retried notice is delivered in its own time). Each
 * alert stream has a month of its own in `year`, a year no other file uses (the alerts job's lease row is shared).
 * `switchable(prefix)` is a job that fails while asked to, and its run for a slot.
 */
export function alertsHarness(options: { year: number; prefix: string; spanMs: number }) {
  let month = 0
  let names = 0
  function alerting(rules: AlertRule[], stream = `${options.prefix}-${++names}`) {
    const start = Date.UTC(options.year, ++month, 1, 3, 0)
    const at = async (
      slot: number,
      { now = slot + 1_000, withRules = rules, spanMs = options.spanMs, tickMs = 1_000 } = {},
    ) => {
      const job = Alerts.job({ consumer: "test.scripted", stream, rules: withRules })
      expect((await Jobs.run(job, new Date(slot), { env, now: () => now })).status).toBe("ran")
      for (let tick = now + tickMs; tick <= now + spanMs; tick += tickMs) {
        for (let i = 0; i < 4; i++) await tickAt(stubOf(stream), tick)
      }
    }
    const notices = (subject?: string) =>
      seen
        .filter(({ delivery }) => delivery.stream === stream)
        .map(({ delivery }) => delivery.payload as AlertNotice)
        .filter((notice) => subject === undefined || notice.subject === subject)
    /** The heartbeat stopped: only the alert stream's alarm runs, at `now`. */
    const alarmAt = async (now: number) => {
      await stubOf(stream).setNow(now)
      await runDurableObjectAlarm(env.SCHEDULES.get(env.SCHEDULES.idFromName(stream)))
    }
    return { stream, start, at, notices, alarmAt }
  }
  function switchable(prefix: string) {
    const state = { failing: true }
    const job = Jobs.make({
      name: `${prefix}.job-${++names}`,
      cron: "* * * * *",
      exclusive: true,
      timeout: 1_000,
      run: () => {
        if (state.failing) throw new Error("the usage store is down")
      },
    })
    const run = async (slot: number, failing: boolean) => {
      state.failing = failing
      await Jobs.run(job, new Date(slot), { env, now: () => slot + 500 })
    }
    return { job, run }
  }
  return { alerting, switchable }
}

/** Each incident's notices, by subject, in the order the consumer saw them. */
export function bySubject(notices: readonly AlertNotice[]) {
  const of = new Map<string, AlertNotice[]>()
  for (const notice of notices) of.set(notice.subject, [...(of.get(notice.subject) ?? []), notice])
  return of
}
