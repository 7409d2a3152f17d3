import { env } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { INCIDENTS_READ, markSent, NOTICES_PER_RUN, writeIncidents } from "../../src/infra/alerts/incidents.ts"
import { Alerts } from "../../src/infra/alerts/index.ts"
import { database } from "../../src/infra/db/index.ts"
import { DEFAULT_RETENTION_MS } from "../../src/infra/schedules/contract/limits.ts"
import { alertsHarness, bySubject } from "../support/alerting.ts"
import { resetConsumers } from "../support/consumers.ts"

// Defects of the alerts found from outside (issues 46 and 47): each test failed before its fix.

const MINUTE = 60_000
const { alerting, switchable } = alertsHarness({ year: 2033, prefix: "outside", spanMs: 1_000 })

// One alerts job a database: a test's job would resolve the incidents of rules another test declared.
beforeEach(async () => {
  resetConsumers()
  await env.DB.exec("DELETE FROM alert_incidents")
})

describe(`past the cap of ${NOTICES_PER_RUN} notices a run (issue 46)`, () => {
  it("an incident resolved before its firing notice went out still delivers it, before its resolved one", async () => {
    const count = NOTICES_PER_RUN + 5
    const jobs = Array.from({ length: count }, () => switchable("capped"))
    const { start: t, at, notices } = alerting(jobs.map(({ job }) => Alerts.jobFailed(job, { slots: 1 })))
    for (const { run } of jobs) await run(t, true)
    // Judged the minute after: 55 incidents open, 50 firing notices go out, 5 wait for the next run.
    await at(t + MINUTE)
    expect(notices()).toHaveLength(NOTICES_PER_RUN)
    // Every job succeeds before the next run: every incident resolves, the 5 still owing their firing notice too.
    for (const { run } of jobs) await run(t + MINUTE, false)
    for (let minute = 2; minute < 8; minute++) await at(t + minute * MINUTE)
    const of = bySubject(notices())
    expect(of.size).toBe(count)
    for (const { job } of jobs) {
      const [firing, resolved, ...more] = of.get(job.name) ?? []
      expect([firing?.status, resolved?.status, more.length], job.name).toEqual(["firing", "resolved", 0])
      expect(resolved?.openedAt).toBe(firing?.openedAt)
      expect(resolved?.cause).toBe(firing?.summary)
    }
  })
})

describe(`more than ${INCIDENTS_READ} incidents open (issue 46)`, () => {
  it("an incident already open and sent is never fired again, nor its opening reset", async () => {
    const { job, run } = switchable("crowded")
    const { start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 1 })])
    // 1,000 older incidents: rows of rules this release cannot name, which it leaves as they are.
    const insert = env.DB.prepare(
      "INSERT INTO alert_incidents (rule, subject, opened_at, state, sent, summary, resolved_at) VALUES (?, ?, ?, 'firing', 1, 'older', NULL)",
    )
    const rows = Array.from({ length: INCIDENTS_READ }, (_, i) => insert.bind("newer-kind.rule", `s-${i}`, t - i - 1))
    await env.DB.batch(rows)
    await run(t, true)
    for (let minute = 1; minute < 5; minute++) await at(t + minute * MINUTE)
    expect(notices().map((notice) => [notice.status, notice.openedAt])).toEqual([["firing", t + MINUTE + 1_000]])
    const row = await env.DB.prepare("SELECT opened_at, sent FROM alert_incidents WHERE subject = ?")
      .bind(job.name)
      .first()
    expect(row).toEqual({ opened_at: t + MINUTE + 1_000, sent: 1 })
  })

  it("an opening written over an incident already open leaves its opening and sent flag as they are", async () => {
    const db = database(env.DB)
    const t = Date.UTC(2033, 0, 1, 3, 0)
    const open = { rule: "job-failed.x", subject: "x", state: "firing" as const, summary: "failed", resolvedAt: null }
    await writeIncidents(db, [{ ...open, openedAt: t, sent: false }])
    await markSent(db, [{ ...open, kind: "job-failed", status: "firing", openedAt: t }])
    await writeIncidents(db, [{ ...open, openedAt: t + MINUTE, sent: false }])
    const row = await env.DB.prepare("SELECT opened_at, sent FROM alert_incidents WHERE rule = 'job-failed.x'").first()
    expect(row).toEqual({ opened_at: t, sent: 1 })
  })
})

describe("a resolved notice's cause is what its firing notice said (issue 47)", () => {
  it("of a rule removed from the code while its incident is open", async () => {
    const { job, run } = switchable("removed")
    const rule = Alerts.jobFailed(job, { slots: 1 })
    const { start: t, at, notices } = alerting([rule])
    await run(t, true)
    await at(t + MINUTE)
    await at(t + 2 * MINUTE, { withRules: [Alerts.streamOverdue({ after: "1 day" })] })
    const [firing, resolved, ...more] = notices(job.name)
    expect(more).toEqual([])
    expect([firing?.status, resolved?.status]).toEqual(["firing", "resolved"])
    expect(resolved?.summary).toMatch(/removed/)
    expect(resolved?.cause).toBe(firing?.summary)
  })
})

describe("a heartbeat-late resolved notice's cause is what its firing notice said (issue 47)", () => {
  const late = () => Alerts.heartbeatLate({ after: "3 minutes" })

  it("when the heartbeat comes back", async () => {
    const { start: t, at, notices, alarmAt } = alerting([late()])
    await at(t)
    await alarmAt(t + 5 * MINUTE)
    await at(t + 6 * MINUTE)
    const [firing, resolved, ...more] = notices()
    expect([firing?.status, resolved?.status, more.length]).toEqual(["firing", "resolved", 0])
    expect(resolved?.summary).toMatch(/runs again/)
    expect(resolved?.cause).toBe(firing?.summary)
  })

  it("after an outage longer than the alert stream keeps the delivered switch", async () => {
    const { start: t, at, notices, alarmAt } = alerting([late()])
    await at(t)
    await alarmAt(t + 5 * MINUTE)
    // Eight days without a heartbeat: the stream sweeps the delivered switch past its retention.
    await alarmAt(t + DEFAULT_RETENTION_MS + 24 * 60 * MINUTE)
    await at(t + 8 * 24 * 60 * MINUTE)
    const [firing, resolved, ...more] = notices()
    expect([firing?.status, resolved?.status, more.length]).toEqual(["firing", "resolved", 0])
    expect(resolved?.cause).toBe(firing?.summary)
  })

  it("when the rule is removed while the switch fired", async () => {
    const { start: t, at, notices, alarmAt } = alerting([late()])
    await at(t)
    await alarmAt(t + 5 * MINUTE)
    // Another rule stays: a stream-overdue one, which may find other tests' streams.
    await at(t + 6 * MINUTE, { withRules: [Alerts.streamOverdue({ after: "1 day" })] })
    const [firing, resolved, ...more] = notices("heartbeat")
    expect([firing?.status, resolved?.status, more.length]).toEqual(["firing", "resolved", 0])
    expect(resolved?.summary).toMatch(/removed/)
    expect(resolved?.cause).toBe(firing?.summary)
  })
})
