import { env } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { type AlertNotice, type AlertRule, Alerts } from "../../src/infra/alerts/index.ts"
import { RUNBOOK } from "../../src/infra/alerts/notice.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { resetConsumers, seen } from "../support/consumers.ts"
import { openStream, stubOf, tickAt } from "../support/streams.ts"

const MINUTE = 60_000
let day = 0
let names = 0
let jobs = 0

beforeEach(() => resetConsumers())

/** An alerts job over `rules` with its own stream, run for a slot and its notices delivered (as alerts.test.ts's). */
function alerting(rules: AlertRule[], dashboard?: string) {
  const stream = `notices-${++names}`
  const job = Alerts.job({ consumer: "test.scripted", stream, rules })
  const start = Date.UTC(2031, 2, 1 + ++day, 3, 0)
  const runEnv = dashboard === undefined ? env : { ...env, SLOTWISE_DASHBOARD_URL: dashboard }
  const at = async (now: number) => {
    expect((await Jobs.run(job, new Date(now), { env: runEnv, now: () => now + 1_000 })).status).toBe("ran")
    await tickAt(stubOf(stream), now + 2_000)
  }
  const notices = () =>
    seen.filter(({ delivery }) => delivery.stream === stream).map(({ delivery }) => delivery.payload as AlertNotice)
  return { start, at, notices }
}

const flaky = () => {
  const state = { failing: false }
  const job = Jobs.make({
    name: `notices.job-${++jobs}`,
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

describe("job-failed judges the watched runs as committed", () => {
  it("fires for 'fail K times, then succeed' even when the alerts job reads before the Kth failure is committed and after the success is", async () => {
    const { job, run } = flaky()
    const { start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 2 })])
    await run(t, true)
    // Slot t+1: the alerts job reads while the job's release still waits in its group commit.
    await at(t + MINUTE)
    await run(t + MINUTE, true)
    // Slot t+2: the job succeeds, and its record is committed before the alerts job reads.
    await run(t + 2 * MINUTE)
    await at(t + 2 * MINUTE)
    await at(t + 3 * MINUTE)
    expect(notices().map((n) => [n.status, n.openedAt])).toEqual([
      // Opened at the database's now: a second past the alerts job's slot (the claim's clock).
      ["firing", t + 2 * MINUTE + 1_000],
      ["resolved", t + 2 * MINUTE + 1_000],
    ])
  })
})

describe("a notice a person acts on", () => {
  it("names the rule and the job in words, what happened, what to check first and links to the job's page", async () => {
    const { job, run } = flaky()
    const { start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 1 })], "https://ops.example.com/admin")
    await run(t, true)
    await at(t + MINUTE)
    await run(t + MINUTE)
    await at(t + 2 * MINUTE)
    const [firing, resolved] = notices()
    expect(firing).toEqual({
      rule: `job-failed.${job.name}`,
      kind: "job-failed",
      subject: job.name,
      about: `job ${job.name}`,
      status: "firing",
      summary: expect.stringContaining("the usage store is down"),
      cause: firing?.summary,
      check: RUNBOOK["job-failed"],
      link: `https://ops.example.com/admin#job=${job.name}`,
      openedAt: t + MINUTE + 1_000,
      resolvedAt: null,
    })
    // The resolved notice says what resolved it, not the firing text again; what opened it stays its cause.
    expect(resolved?.status).toBe("resolved")
    expect(resolved?.summary).toBe(
      `${job.name} ran again: its run for slot ${new Date(t + MINUTE).toISOString()} succeeded`,
    )
    expect(resolved?.summary).not.toBe(firing?.summary)
    expect(resolved?.cause).toBe(firing?.summary)
    expect(resolved?.link).toBe(firing?.link)
  })

  it("has no link without SLOTWISE_DASHBOARD_URL, or with one that is not an absolute http(s) URL", async () => {
    for (const dashboard of [undefined, "ops.example.com/admin", "javascript:alert(1)"]) {
      const { job, run } = flaky()
      const { start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 1 })], dashboard)
      await run(t, true)
      await at(t + MINUTE)
      expect(notices()[0]?.link).toBeNull()
    }
  })

  it("a schedule's notice names the schedule and its stream, links to both, and its resolution says why it resolved", async () => {
    const watched = openStream("noticed")
    const {
      start: t,
      at,
      notices,
    } = alerting([Alerts.scheduleFailed({ stream: watched.name })], "https://ops.example.com/admin")
    await watched.upsert({ id: "hook", consumer: "test.scripted", every: "1 minute" }, t - MINUTE)
    const { script } = await import("../support/consumers.ts")
    script.set("hook", ["terminal"])
    await watched.tick(t)
    await at(t)
    await watched.resume("hook", t + MINUTE)
    await at(t + MINUTE)
    const [firing, resolved] = notices().filter((n) => n.kind === "schedule-failed")
    expect(firing).toMatchObject({
      about: `schedule hook of stream ${watched.name}`,
      check: RUNBOOK["schedule-failed"],
      link: `https://ops.example.com/admin#stream=${watched.name}&schedule=hook`,
    })
    expect(resolved?.summary).toMatch(/^schedule hook of stream .* is failed no more/)
  })

  it("every rule has its runbook line, and docs/admin.md prints each one", async () => {
    const kinds = ["job-failed", "job-missed", "heartbeat-late", "schedule-failed", "stream-overdue"] as const
    expect(Object.keys(RUNBOOK).sort()).toEqual([...kinds].sort())
    for (const kind of kinds) expect(RUNBOOK[kind].length).toBeGreaterThan(20)
  })
})
