import { setTimeout as sleep } from "node:timers/promises"
import type { Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import type { Answers } from "../../src/infra/admin/answers.ts"
import { type AdminCall, adminClient, signIn } from "./admin.ts"
import { byTestId, openBrowser, type Session } from "./chromium.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

/** Pausing a misbehaving job from the dashboard, with a reason, and resuming it: against a real `wrangler dev`. */

const MINUTE = 60_000
const ROLL_UP = "billing.roll-up-usage"
const REASON = "usage store migration until 14:00"

let worker: LocalWorker | undefined
let session: Session | undefined
let page: Page
let call: AdminCall

const minuteOf = (ms: number) => Math.floor(ms / MINUTE) * MINUTE
const jobRow = () => page.locator(`${byTestId("job-row")}[data-job="${ROLL_UP}"]`)
const rollUp = async () => (await call<Answers["jobs"]>("GET", "/jobs")).jobs.find((job) => job.name === ROLL_UP)

/** Waits for the next minute when this one ends within 10 s, so that slots computed now stay in their minute. */
async function awayFromMinuteEdge() {
  const left = MINUTE - (Date.now() % MINUTE)
  if (left < 10_000) await sleep(left + 50)
}

beforeAll(async () => {
  worker = await startWorker()
  call = adminClient(worker)
  session = await openBrowser()
  page = session.page
  await signIn(page, worker)
}, 240_000)

afterAll(async () => {
  await session?.browser.close().catch(() => {})
  await worker?.stop()
}, 60_000)

describe("pausing a job from the dashboard", () => {
  afterEach(() => {
    expect(session?.errors()).toEqual([])
  })

  let first = 0

  test("pauses it with a reason: the row and health say so, by whom and since when", async () => {
    await awayFromMinuteEdge()
    first = minuteOf(Date.now()) - 6 * MINUTE
    await worker!.beat(first)
    expect((await rollUp())?.lastRun?.slot).toBe(first)
    await page.click(byTestId("jobs-refresh"))
    let asked = ""
    page.once("dialog", (dialog) => {
      asked = dialog.message()
      void dialog.accept(REASON)
    })
    await jobRow().locator(byTestId("job-pause")).click()
    await jobRow().locator(byTestId("job-paused")).waitFor()
    expect(asked).toContain(`Pause ${ROLL_UP}?`)
    expect(await jobRow().locator(byTestId("job-paused-reason")).textContent()).toBe(REASON)
    expect(await jobRow().locator(byTestId("job-paused")).textContent()).toContain("by the admin token · since")
    expect(await jobRow().locator(byTestId("job-resume")).isVisible()).toBe(true)
    expect((await rollUp())?.paused).toMatchObject({ reason: REASON, pausedBy: null, resumedAt: null })

    await page.click(byTestId("health-refresh"))
    const listed = page.locator(`${byTestId("paused-job")}[data-job="${ROLL_UP}"]`)
    await listed.waitFor()
    expect(await listed.textContent()).toContain(REASON)
    expect(await listed.textContent()).toMatch(/by the admin token, \d+ s ago/)
  })

  test("the heartbeat skips its slots, and the Runs table and today's marks show them as paused, not missed", async () => {
    // The pause began just after the first run (the operator paused it then): only its time is moved back.
    await worker!.d1(`UPDATE jobs_pauses SET paused_at = ${first + 30_000} WHERE job = '${ROLL_UP}'`)
    const skipped = [first + MINUTE, first + 2 * MINUTE]
    for (const slot of skipped) await worker!.beat(slot)
    const view = await rollUp()
    expect(view?.lease.lastSlot).toBe(first)
    await page.click(byTestId("jobs-refresh"))
    await jobRow().locator(byTestId("job-runs")).click()
    for (const slot of skipped) {
      await page.locator(`${byTestId("run-row")}[data-slot="${slot}"][data-status="paused"]`).waitFor()
    }
    const statuses = await page
      .locator(byTestId("run-row"))
      .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.status))
    expect(statuses).not.toContain("missed")
    const history = await call<Answers["jobHistory"]>("GET", `/jobs/${ROLL_UP}/history?days=1`)
    await page
      .locator(`${byTestId("today-mark")}[data-status="paused"]`)
      .first()
      .waitFor()
    const marks = await page
      .locator(byTestId("today-mark"))
      .evaluateAll((nodes) =>
        nodes.map((node) => [Number((node as SVGElement).dataset.slot), (node as SVGElement).dataset.status]),
      )
    const paused = history.today.filter((slot) => slot.status === "paused").map((slot) => slot.slot)
    for (const slot of skipped) if (history.today.some((s) => s.slot === slot)) expect(paused).toContain(slot)
    expect(marks.filter(([, status]) => status === "paused").map(([slot]) => slot)).toEqual(paused)
    expect(history.hours.reduce((n, hour) => n + hour.missed, 0)).toBe(0)
  })

  test("resumes it: the badge and health's entry go, and the heartbeat runs its next slot", async () => {
    await awayFromMinuteEdge()
    let asked = ""
    page.once("dialog", (dialog) => {
      asked = dialog.message()
      void dialog.accept()
    })
    await jobRow().locator(byTestId("job-resume")).click()
    await jobRow().locator(byTestId("job-pause")).waitFor()
    expect(asked).toBe(`Resume ${ROLL_UP}? It runs again from its next slot.`)
    expect(await jobRow().locator(byTestId("job-paused")).count()).toBe(0)
    await page.click(byTestId("health-refresh"))
    await page.locator(byTestId("paused-count"), { hasText: "none" }).waitFor()
    const next = minuteOf(Date.now())
    await worker!.beat(next)
    expect((await rollUp())?.lastRun?.slot).toBe(next)
  })
})
