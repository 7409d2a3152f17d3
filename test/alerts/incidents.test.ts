import { describe, expect, it } from "vitest"
import { type Incident, NOTICES_PER_RUN, planIncidents } from "../../src/infra/alerts/incidents.ts"
import { type BareNotice, noticeId } from "../../src/infra/alerts/notice.ts"
import type { AlertKind } from "../../src/infra/alerts/rule.ts"

const T = Date.UTC(2030, 0, 1, 3, 0)
const RULE = "job-failed.billing.close-expired-trials"
const kinds = new Map<string, AlertKind>([[RULE, "job-failed"]])
const finding = (subject = "billing.close-expired-trials") => ({ rule: RULE, subject, summary: "failed twice" })
const incident = (over: Partial<Incident> = {}): Incident => ({
  rule: RULE,
  subject: "billing.close-expired-trials",
  openedAt: T,
  state: "firing",
  sent: true,
  summary: "failed twice",
  resolvedAt: null,
  ...over,
})

describe("planIncidents: one notice when an incident opens, one when it resolves", () => {
  it("opens an incident for a new finding and owes its firing notice", () => {
    const plan = planIncidents([], [finding()], kinds, T)
    expect(plan.writes).toEqual([incident({ sent: false })])
    expect(plan.notices).toEqual([expect.objectContaining({ status: "firing", openedAt: T, resolvedAt: null })])
  })

  it("owes nothing while a sent incident keeps firing", () => {
    expect(planIncidents([incident()], [finding()], kinds, T + 60_000)).toEqual({ writes: [], notices: [] })
  })

  it("owes the firing notice again until it is sent", () => {
    const plan = planIncidents([incident({ sent: false })], [finding()], kinds, T + 60_000)
    expect(plan.writes).toEqual([])
    expect(plan.notices.map((notice) => notice.status)).toEqual(["firing"])
  })

  it("resolves an incident whose finding is gone, and owes the resolved notice", () => {
    const plan = planIncidents([incident()], [], kinds, T + 120_000)
    expect(plan.writes).toEqual([incident({ state: "resolved", sent: false, resolvedAt: T + 120_000 })])
    expect(plan.notices).toEqual([expect.objectContaining({ status: "resolved", resolvedAt: T + 120_000 })])
  })

  it("owes the firing notice of an incident whose finding went before it was sent, and resolves it once sent", () => {
    const unsent = incident({ sent: false })
    const plan = planIncidents([unsent], [], kinds, T + 120_000)
    // Not resolved yet: a resolved row would owe its resolved notice alone, and the firing one would be lost.
    expect(plan).toEqual({ writes: [], notices: [expect.objectContaining({ status: "firing", openedAt: T })] })
    const next = planIncidents([{ ...unsent, sent: true }], [], kinds, T + 180_000)
    expect(next.writes).toEqual([incident({ state: "resolved", sent: false, resolvedAt: T + 180_000 })])
    expect(next.notices).toEqual([expect.objectContaining({ status: "resolved", cause: "failed twice" })])
    expect(noticeId(next.notices[0] as BareNotice)).not.toBe(noticeId(plan.notices[0] as BareNotice))
  })

  it("leaves a resolved incident's notice owed even if the condition holds again, until it is sent", () => {
    const resolved = incident({ state: "resolved", sent: false, resolvedAt: T + 60_000 })
    const plan = planIncidents([resolved], [finding()], kinds, T + 120_000)
    expect(plan.writes).toEqual([])
    expect(plan.notices.map((notice) => notice.status)).toEqual(["resolved"])
  })

  it("resolves the incident of a rule no longer declared, its notice saying so", () => {
    const other = incident({ rule: "job-missed.gone" })
    const plan = planIncidents([other], [], kinds, T + 60_000)
    expect(plan.writes).toEqual([
      expect.objectContaining({ rule: "job-missed.gone", state: "resolved", resolvedAt: T + 60_000 }),
    ])
    expect(plan.notices).toEqual([
      expect.objectContaining({
        kind: "job-missed",
        status: "resolved",
        summary: expect.stringMatching(/removed from the code/),
        // What its firing notice said, exactly (issue 47).
        cause: "failed twice",
      }),
    ])
    // The row keeps the firing summary, so a resolved notice sent a run later has the same cause.
    expect(plan.writes[0]?.summary).toBe("failed twice")
  })

  it("leaves the incidents of a rule declared but not judged this run (its stream did not answer) as they are", () => {
    const declared = new Set([RULE, "schedule-failed.slow"])
    const waiting = incident({ rule: "schedule-failed.slow", subject: "slow/hook" })
    expect(planIncidents([waiting], [], kinds, T, declared)).toEqual({ writes: [], notices: [] })
  })

  it("leaves a row no rule can name as it is", () => {
    expect(planIncidents([incident({ rule: "not-a-kind" })], [], kinds, T)).toEqual({ writes: [], notices: [] })
  })

  it(`sends at most ${NOTICES_PER_RUN} notices a run, the rest the next`, () => {
    const findings = Array.from({ length: NOTICES_PER_RUN + 7 }, (_, i) => finding(`job-${i}`))
    const plan = planIncidents([], findings, kinds, T)
    expect(plan.writes).toHaveLength(NOTICES_PER_RUN + 7)
    expect(plan.notices).toHaveLength(NOTICES_PER_RUN)
  })

  it("names a notice the same however often it is asked for, and differently per state and incident", () => {
    const firing = { kind: "job-failed" as const, rule: RULE, subject: "a", openedAt: T, status: "firing" as const }
    expect(noticeId(firing)).toBe(noticeId({ ...firing }))
    expect(noticeId(firing)).not.toBe(noticeId({ ...firing, status: "resolved" }))
    expect(noticeId(firing)).not.toBe(noticeId({ ...firing, openedAt: T + 60_000 }))
    expect(noticeId(firing)).toMatch(/^job-failed-[0-9a-f]{16}-[0-9a-z]+-firing$/)
  })
})
