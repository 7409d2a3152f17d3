import type { Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import type { Answers } from "../../src/infra/admin/answers.ts"
import { type AdminCall, adminClient, signIn } from "./admin.ts"
import { byTestId, openBrowser, type Session } from "./chromium.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

/** The dashboard as the person paged at 3 am reads it (issue 47), against a real `wrangler dev`. */

const MINUTE = 60_000
const HOUR = 3_600_000
const ROLL = "billing.roll-up-usage"
const CLOSE = "billing.close-expired-trials"
const WATCHDOG = "schedules.alarm-watchdog"
const T = Math.floor(Date.now() / MINUTE) * MINUTE
/** Its runs by minutes before T: the first 8 minutes ago, two failed. */
const RUNS = [
  { ago: 8, outcome: "ran" },
  { ago: 7, outcome: "failed" },
  { ago: 6, outcome: "ran" },
  { ago: 5, outcome: "ran" },
  { ago: 4, outcome: "failed" },
  { ago: 3, outcome: "ran" },
] as const
const LONG_ID = `tenant-${"x".repeat(121)}`
const LONG_REASON =
  `${"paused while the usage store is migrated to the new cluster; ".repeat(15)}${"y".repeat(100)}`.slice(0, 1000)
const LONG_JOB = `billing.${"a".repeat(92)}`

let worker: LocalWorker | undefined
let session: Session | undefined
let page: Page
let call: AdminCall

const jobRow = (name: string) => page.locator(`${byTestId("job-row")}[data-job="${name}"]`)

/** The lease row and hour rows RUNS' releases would have written (as history.browser.test.ts's). */
function runRows(): string[] {
  const records = RUNS.map(({ ago, outcome }, i) => ({
    slot: T - ago * MINUTE,
    runId: `run-${i}`,
    outcome,
    ms: 40 + i,
    finishedAt: T - ago * MINUTE + 1_000,
    error: outcome === "failed" ? `usage store unavailable (run ${i})` : null,
  }))
  const last = records.at(-1) as (typeof records)[number]
  const hours = new Map<number, typeof records>()
  for (const record of records) {
    const hour = record.slot - (record.slot % HOUR)
    hours.set(hour, [...(hours.get(hour) ?? []), record])
  }
  const hourRows = [...hours].map(([hour, runs]) => {
    const count = (outcome: string) => runs.filter((run) => run.outcome === outcome).length
    const entries = runs.map((run) => `${(run.slot - hour) / MINUTE}:${run.outcome[0]}:${run.ms}`).join(",")
    return `('${ROLL}', ${hour}, ${count("ran")}, ${count("failed")}, 0, 0, ${Math.max(...runs.map((r) => r.ms))}, '${entries}')`
  })
  return [
    `INSERT INTO jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs) VALUES ${hourRows.join(", ")}`,
    `INSERT INTO jobs_leases (name, last_slot, lease_until, holder, lease_ms, last_run_slot, last_run_id, last_outcome, last_ms, last_finished_at, last_error, run_history) VALUES ('${ROLL}', ${last.slot}, NULL, NULL, 90000, ${last.slot}, '${last.runId}', '${last.outcome}', ${last.ms}, ${last.finishedAt}, NULL, '${JSON.stringify(records)}')`,
  ]
}

beforeAll(async () => {
  worker = await startWorker()
  call = adminClient(worker)
  for (const statement of runRows()) await worker.d1(statement)
  await call("POST", `/jobs/${WATCHDOG}/pause`, { reason: "noisy during the migration" })
  // A notice in the alert stream, due later so it stays listed (as the alerts job writes one).
  const notice = {
    rule: `job-failed.${ROLL}`,
    kind: "job-failed",
    subject: ROLL,
    about: `job ${ROLL}`,
    status: "firing",
    summary: `${ROLL} failed its newest 2 runs: usage store unavailable`,
    cause: `${ROLL} failed its newest 2 runs: usage store unavailable`,
    check: "Open the job's runs: read the newest error and fix its cause.",
    link: null,
    openedAt: T,
    resolvedAt: null,
  }
  await call("PUT", "/streams/slotwise-alerts/schedules/job-failed-03e0b818-mx922jkq-firing", {
    consumer: "ops.alert-webhook",
    at: T + 24 * HOUR,
    payload: notice,
  })
  await call("PUT", `/streams/long-inputs/schedules/${LONG_ID}`, {
    consumer: "billing.usage-report",
    every: "1 hour",
    payload: { account: "acme" },
  })
  await call("POST", `/streams/long-inputs/schedules/${LONG_ID}/cancel`, { reason: LONG_REASON })
  session = await openBrowser()
  page = session.page
  await signIn(page, worker)
}, 240_000)

afterAll(async () => {
  await session?.browser.close().catch(() => {})
  await worker?.stop()
}, 60_000)

describe("the first view answers the morning question", () => {
  afterEach(() => {
    expect(session?.errors()).toEqual([])
  })

  test("each job's today since its first run, and its newest failure: when and why", async () => {
    const today = jobRow(ROLL).locator(byTestId("job-today"))
    await today.waitFor()
    const history = await call<Answers["jobHistory"]>("GET", `/jobs/${ROLL}/history?days=1`)
    const past = history.today.filter((s) => s.status !== "due" && s.status !== "unknown")
    // Counted from its first run, not from midnight: the slots before it are not "slots that did not run".
    expect(past[0]?.slot).toBe(T - 8 * MINUTE)
    expect(await today.textContent()).toMatch(new RegExp(`^4 of ${past.length} ran · 2 failed`))
    expect(await jobRow(ROLL).textContent()).toContain("since its first run")
    const failure = jobRow(ROLL).locator(byTestId("job-newest-failure"))
    expect(await failure.textContent()).toContain("usage store unavailable (run 4)")
    expect(await failure.locator("time").getAttribute("datetime")).toBe(new Date(T - 4 * MINUTE).toISOString())
    // A job that never ran says so, instead of "0 of 1 slots ran".
    await jobRow(CLOSE).locator(byTestId("job-today")).waitFor()
    expect(await jobRow(CLOSE).locator("td.today").textContent()).toMatch(/none due yet|never ran/)
  })

  test("a paused job's Next run says paused; health is not ok while the watchdog is paused, and says why", async () => {
    expect(await jobRow(WATCHDOG).locator(byTestId("job-next")).textContent()).toBe("pausedno run until resumed")
    await page.locator(`${byTestId("health-ok")}`, { hasText: "not ok" }).waitFor()
    expect(await page.locator(byTestId("health-ok")).textContent()).toContain(`${WATCHDOG} paused`)
    const blind = page.locator(`${byTestId("health-blind")}[data-job="${WATCHDOG}"]`)
    expect(await blind.textContent()).toMatch(/^Cannot vouch for streams behind: .*noisy during the migration\)$/)
    expect(await page.locator(byTestId("watchdog-status")).textContent()).toBe("paused: not watching")
  })

  test("an empty chart says no runs yet", async () => {
    await jobRow(CLOSE).locator(byTestId("job-runs")).click()
    await page.waitForFunction((job) => document.querySelector('[data-testid="runs-name"]')?.textContent === job, CLOSE)
    const charts = page.locator(`${byTestId("job-charts")} ${byTestId("chart")}`)
    await charts.nth(2).waitFor()
    expect(await charts.nth(2).textContent()).toContain("no runs yet")
    expect(await charts.nth(2).textContent()).not.toMatch(/max \d+ ms/)
  })

  test("a notice's link opens its page: #job= the job's runs, #stream=…&schedule=… its events", async () => {
    await page.goto(`${worker!.origin}/admin#job=${ROLL}`)
    await page.waitForFunction((job) => document.querySelector('[data-testid="runs-name"]')?.textContent === job, ROLL)
    await page.goto(`${worker!.origin}/admin#stream=long-inputs&schedule=${LONG_ID}`)
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="events-name"]')?.textContent === `long-inputs / ${id}`,
      LONG_ID,
    )
  })

  test("alert notices in the stream view say which job, not a truncated id", async () => {
    await page.goto(`${worker!.origin}/admin#stream=slotwise-alerts`)
    const notice = page.locator(byTestId("schedule-notice"))
    await notice.waitFor()
    expect(await notice.textContent()).toContain(`firing job-failed: job ${ROLL}`)
    expect(await notice.textContent()).toContain("usage store unavailable")
  })
})

describe("a layout that holds with long inputs", () => {
  test("a 1,000-character reason, a 128-character id and a 100-character job name: each row within its panel, its buttons visible", async () => {
    // The 100-character job is the answer's: a real job of that name, paused with the long reason, added to /jobs.
    await page.route("**/admin/jobs", async (route) => {
      const res = await route.fetch()
      const answer = (await res.json()) as Answers["jobs"]
      const model = answer.jobs.find((job) => job.name === ROLL) as Answers["jobs"]["jobs"][number]
      const paused = {
        job: LONG_JOB,
        pausedAt: T,
        pausedBy: null,
        reason: LONG_REASON,
        resumedAt: null,
        resumedBy: null,
      }
      answer.jobs.push({ ...model, name: LONG_JOB, paused })
      await route.fulfill({ response: res, json: answer })
    })
    await page.goto(`${worker!.origin}/admin#stream=long-inputs&schedule=${LONG_ID}`)
    await page.reload()
    await jobRow(LONG_JOB).waitFor()
    await page.locator(`${byTestId("schedule-row")}[data-id="${LONG_ID}"]`).waitFor()
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="events-name"]')?.textContent === `long-inputs / ${id}`,
      LONG_ID,
    )
    expect(await page.locator(byTestId("schedule-reason")).first().getAttribute("title")).toBe(LONG_REASON)
    const outside = await page.evaluate(() => {
      const problems: string[] = []
      for (const row of document.querySelectorAll<HTMLElement>(
        '[data-testid="job-row"], [data-testid="schedule-row"]',
      )) {
        const panel = (row.closest("section") as HTMLElement).getBoundingClientRect()
        const box = row.getBoundingClientRect()
        if (box.left < panel.left - 0.5 || box.right > panel.right + 0.5)
          problems.push(
            `${row.dataset.job ?? row.dataset.id}: row ${box.left}..${box.right} outside ${panel.left}..${panel.right}`,
          )
        for (const button of row.querySelectorAll("button")) {
          const b = button.getBoundingClientRect()
          if (b.width === 0 || b.left < panel.left - 0.5 || b.right > panel.right + 0.5 || b.right > innerWidth)
            problems.push(`${row.dataset.job ?? row.dataset.id}: button ${button.textContent} at ${b.left}..${b.right}`)
        }
      }
      const detail = document.querySelector('[data-testid="schedule-detail"]') as HTMLElement
      const events = (detail.closest("section") as HTMLElement).getBoundingClientRect()
      if (detail.scrollWidth > detail.clientWidth + 1 || detail.getBoundingClientRect().right > events.right + 0.5)
        problems.push("the schedule's detail overflows its panel")
      if (document.documentElement.scrollWidth > innerWidth) problems.push("the page scrolls sideways")
      return problems
    })
    expect(outside).toEqual([])
    await page.unroute("**/admin/jobs")
  })
})
