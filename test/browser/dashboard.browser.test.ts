import { mkdir } from "node:fs/promises"
import path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { ROOT } from "../../scripts/dev/wrangler.ts"
import { type AdminCall, adminClient } from "./admin.ts"
import { byTestId, openBrowser, type Session } from "./chromium.ts"
import { BULK_SIZE, BULK_STREAM, DEAD_URL, FAILING_STREAM, STREAM, seed } from "./seed.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

const SCREENSHOT = path.join(ROOT, "docs/dashboard.png")

let worker: LocalWorker | undefined
let session: Session | undefined
let context: BrowserContext
let page: Page
let call: AdminCall

const jobRow = (name: string) => page.locator(`${byTestId("job-row")}[data-job="${name}"]`)
const scheduleRow = (id: string) => page.locator(`${byTestId("schedule-row")}[data-id="${id}"]`)
const status = () => page.locator(byTestId("status"))

beforeAll(async () => {
  worker = await startWorker()
  call = adminClient(worker)
  await seed(call).catch((error: Error) => {
    throw new Error(`${error.message}\n--- wrangler dev's latest output ---\n${worker?.log()}`)
  })
  session = await openBrowser()
  ;({ context, page } = session)
}, 240_000)

afterAll(async () => {
  await session?.browser.close().catch(() => {})
  await worker?.stop()
}, 60_000)

describe("the admin dashboard", () => {
  afterEach(() => {
    expect(session?.errors()).toEqual([])
  })

  test.each(["/admin", "/admin/"])("serves %s as a shell with no token and no cookie", async (path) => {
    const res = await fetch(`${worker!.origin}${path}`)
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toMatch(/^text\/html/)
    expect(res.headers.get("set-cookie")).toBeNull()
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'nonce-/)
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).not.toContain(worker!.token)
  })

  test("asks for the token, and asks again after a 401", async () => {
    await page.goto(`${worker!.origin}/admin`)
    await page.locator(byTestId("token-form")).waitFor()
    await page.fill(byTestId("token-input"), "not-the-token")
    await page.click(byTestId("token-submit"))
    await page.locator(byTestId("token-message"), { hasText: "401" }).waitFor()
    expect(await page.locator(byTestId("app")).isHidden()).toBe(true)
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)

    await page.fill(byTestId("token-input"), worker!.token)
    await page.click(byTestId("token-submit"))
    await page.locator(byTestId("app")).waitFor()
    expect(await context.cookies()).toEqual([])
  })

  test("shows the declared jobs and runs one now", async () => {
    await jobRow("billing.close-expired-trials").waitFor()
    await jobRow("billing.roll-up-usage").waitFor()
    expect(await jobRow("billing.close-expired-trials").textContent()).toContain("0 3 * * *")

    page.once("dialog", (dialog) => void dialog.accept())
    await jobRow("billing.roll-up-usage").locator(byTestId("job-run")).click()
    await page.locator(`${byTestId("status")}[data-kind="ok"]`, { hasText: "Ran billing.roll-up-usage" }).waitFor()
    expect(await status().textContent()).toMatch(/: ran in \d+ ms$/)
  })

  test("lists each stream with what failed, what retries and its newest error, before any is opened", async () => {
    const streamItem = (name: string) => page.locator(`${byTestId("streams-list")} li[data-stream="${name}"]`)
    await streamItem(FAILING_STREAM).locator(byTestId("stream-failed")).waitFor()
    expect(await streamItem(FAILING_STREAM).locator(byTestId("stream-failed")).textContent()).toBe("1 failed")
    const failing = await call<{ newestError: { id: string; error: string } | null }>(
      "GET",
      `/streams/${FAILING_STREAM}/summary`,
    )
    expect(failing.newestError).toMatchObject({ id: "usage-webhook" })
    expect(failing.newestError?.error).toContain(`POST ${DEAD_URL} failed`)
    expect(await streamItem(FAILING_STREAM).locator(byTestId("stream-newest-error")).textContent()).toContain(
      `usage-webhook: POST ${DEAD_URL} failed`,
    )
    await streamItem(STREAM).locator(byTestId("stream-retrying")).waitFor()
    expect(await streamItem(STREAM).locator(byTestId("stream-newest-error")).textContent()).toMatch(
      /ago, usage-webhook: POST .* failed/,
    )
    // A stream with nothing wrong says so, and shows no error.
    await streamItem("initech").locator(byTestId("stream-status"), { hasText: "all on time" }).waitFor()
    expect(await streamItem("initech").locator(byTestId("stream-newest-error")).count()).toBe(0)
  })

  test("opens a stream and shows its schedules, times in UTC and local", async () => {
    await page.locator(`${byTestId("stream-link")}[data-stream="${STREAM}"]`).click()
    await scheduleRow("usage-webhook").waitFor()
    expect(await page.locator(byTestId("schedule-row")).count()).toBe(5)
    expect(await scheduleRow("welcome-report").locator(byTestId("schedule-state")).textContent()).toBe("completed")
    const due = await scheduleRow("daily-digest").locator("time").first().textContent()
    // 09:00 in Berlin is 08:00 UTC in winter, 07:00 in summer; the viewer (Berlin) sees 09:00.
    expect(due).toMatch(/^\d{4}-\d\d-\d\d 0[78]:00:00 UTC · 09:00 local$/)
  })

  test("shows the retrying webhook's last error", async () => {
    const { schedule } = await call<{ schedule: { lastError: string } }>(
      "GET",
      `/streams/${STREAM}/schedules/usage-webhook`,
    )
    const row = scheduleRow("usage-webhook")
    expect(await row.locator(byTestId("schedule-state")).textContent()).toBe("scheduled")
    await row.locator(byTestId("schedule-retrying")).waitFor()
    expect(await row.locator(byTestId("schedule-error")).textContent()).toBe(schedule.lastError)
    expect(schedule.lastError).toContain(`POST ${DEAD_URL} failed`)
  })

  test("cancels a schedule after confirming, and shows the outcome and its event", async () => {
    let question = ""
    page.once("dialog", (dialog) => {
      question = dialog.message()
      void dialog.accept()
    })
    await scheduleRow("daily-digest").locator(byTestId("schedule-cancel")).click()
    await scheduleRow("daily-digest").locator(byTestId("schedule-state"), { hasText: "cancelled" }).waitFor()
    expect(question).toContain("daily-digest")
    await page
      .locator(`${byTestId("status")}[data-kind="ok"]`, { hasText: "cancel daily-digest: now cancelled" })
      .waitFor()
    await page.locator(`${byTestId("event-row")}[data-type="schedule/cancelled"]`).waitFor()
    expect(await page.locator(byTestId("events-name")).textContent()).toBe(`${STREAM} / daily-digest`)
  })

  test("a dismissed confirm changes nothing, on the page or in the stream", async () => {
    const before = await call("GET", `/streams/${STREAM}/schedules/usage-report`)
    let asked = ""
    page.once("dialog", (dialog) => {
      asked = dialog.message()
      void dialog.dismiss()
    })
    await scheduleRow("usage-report").locator(byTestId("schedule-cancel")).click()
    expect(asked).toContain("Cancel schedule usage-report")
    expect(await scheduleRow("usage-report").locator(byTestId("schedule-state")).textContent()).toBe("scheduled")
    const after = await call("GET", `/streams/${STREAM}/schedules/usage-report`)
    expect(after).toEqual(before)
  })

  test("offers only the actions a schedule's state allows", async () => {
    const offered = async (id: string) =>
      (await scheduleRow(id).locator("button").allTextContents()).filter((label) => label !== "Events")
    expect(await offered("usage-report")).toEqual(["Trigger", "Cancel"])
    expect(await offered("daily-digest")).toEqual(["Resume", "Remove"])
    expect(await offered("welcome-report")).toEqual(["Remove"])
  })

  test("a refused action (the row changed behind the page) shows its problem detail", async () => {
    // Cancelled through the API: the page still shows it scheduled, with its Cancel button.
    await call("POST", `/streams/${STREAM}/schedules/quarter-close/cancel`)
    page.once("dialog", (dialog) => void dialog.accept())
    await scheduleRow("quarter-close").locator(byTestId("schedule-cancel")).click()
    await page.locator(`${byTestId("status")}[data-kind="error"]`, { hasText: "409" }).waitFor()
    expect(await status().textContent()).toContain("schedule is cancelled")
    // The refresh after the refusal shows the row as it is, with what a cancelled schedule offers.
    await scheduleRow("quarter-close").locator(byTestId("schedule-state"), { hasText: "cancelled" }).waitFor()
    expect(await scheduleRow("quarter-close").locator(byTestId("schedule-resume")).count()).toBe(1)
  })

  test("says plainly that a stream named in the box does not exist", async () => {
    await page.fill(byTestId("stream-input"), "no-such-stream")
    await page.press(byTestId("stream-input"), "Enter")
    const missing = page.locator(byTestId("stream-missing"))
    await missing.waitFor()
    expect(await missing.textContent()).toMatch(/^There is no stream "no-such-stream"\./)
    expect(await page.locator(byTestId("schedule-row")).count()).toBe(0)
    expect(await status().textContent()).not.toContain("404")
    await page.locator(`${byTestId("stream-link")}[data-stream="${STREAM}"]`).click()
    await scheduleRow("usage-report").waitFor()
    expect(await missing.isHidden()).toBe(true)
  })

  test("filters by state", async () => {
    await page.selectOption(byTestId("state-filter"), "cancelled")
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="schedule-row"]').length === 2)
    expect(await scheduleRow("daily-digest").count()).toBe(1)
    expect(await scheduleRow("quarter-close").count()).toBe(1)
    await page.selectOption(byTestId("state-filter"), "")
    await scheduleRow("usage-webhook").waitFor()
  })

  test("offers Remove only for a finished or cancelled schedule, and removes one after confirming", async () => {
    expect(await scheduleRow("usage-report").locator(byTestId("schedule-remove")).count()).toBe(0)
    let question = ""
    page.once("dialog", (dialog) => {
      question = dialog.message()
      void dialog.accept()
    })
    await scheduleRow("daily-digest").locator(byTestId("schedule-remove")).click()
    await page.locator(`${byTestId("status")}[data-kind="ok"]`, { hasText: "removed daily-digest" }).waitFor()
    await scheduleRow("daily-digest").waitFor({ state: "detached" })
    expect(question).toContain("occurrence 1")
  })

  test("pages through a large stream by cursor", async () => {
    await page.fill(byTestId("stream-input"), BULK_STREAM)
    await page.press(byTestId("stream-input"), "Enter")
    await scheduleRow("report-000").waitFor()
    expect(await page.locator(byTestId("schedule-row")).count()).toBe(50)
    await page.click(byTestId("schedules-next"))
    await scheduleRow("report-050").waitFor()
    expect(await page.locator(byTestId("schedule-row")).count()).toBe(BULK_SIZE - 50)
    expect(await page.locator(byTestId("schedules-next")).isDisabled()).toBe(true)
    await page.click(byTestId("schedules-prev"))
    await scheduleRow("report-000").waitFor()
  })

  test("shows a schedule that ran out of attempts as failed", async () => {
    await page.locator(`${byTestId("stream-link")}[data-stream="${FAILING_STREAM}"]`).click()
    const row = scheduleRow("usage-webhook")
    await row.locator(byTestId("schedule-state"), { hasText: "failed" }).waitFor()
    expect(await row.locator(byTestId("schedule-error")).textContent()).toContain("127.0.0.1:9")
  })

  test("forgets the token, and what it fetched", async () => {
    await page.click(byTestId("forget-token"))
    await page.locator(byTestId("token-form")).waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    expect(await page.locator(`${byTestId("job-row")}, ${byTestId("schedule-row")}`).count()).toBe(0)
  })

  // Only registered on request (npm run screenshot), so a normal run reports no skipped test.
  if (process.env.SLOTWISE_SCREENSHOT === "1") {
    test("screenshots the dashboard into docs/", async () => {
      // A heartbeat, so that the watchdog has a run to show.
      await worker!.beat(Date.now())
      await page.fill(byTestId("token-input"), worker!.token)
      await page.click(byTestId("token-submit"))
      // The first view, as the person paged at 3 am sees it on signing in: every job and stream, today at a glance.
      await page.locator(byTestId("job-row")).first().waitFor()
      // Every cell filled: each exclusive job's today, each listed stream's state.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('td.today, [data-testid="stream-status"]')].every(
          (cell) => cell.textContent !== "…",
        ),
      )
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      await page.mouse.move(0, 0)
      await mkdir(path.dirname(SCREENSHOT), { recursive: true })
      await page.screenshot({ path: SCREENSHOT, fullPage: true })
    })
  }
})
