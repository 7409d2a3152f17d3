import { spawn } from "node:child_process"
import { once } from "node:events"
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import type { Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { seedDemo } from "../../scripts/dev/seed.ts"
import { ROOT } from "../../scripts/dev/wrangler.ts"
import { type AdminCall, adminClient, signIn } from "./admin.ts"
import { byTestId, openBrowser, type Session } from "./chromium.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

/**
 * The operator's three questions, answered by the dashboard for the demo `npm start` seeds: is the
 * heartbeat alive, did the job run (how long, why it failed), is any stream falling behind.
 */

const MINUTE = 60_000
const ROLL_UP = "billing.roll-up-usage"
const DEMO = "demo"
const AUTO_REFRESH_MS = 10_000
const SCREENSHOT = path.join(ROOT, "docs/job-runs.png")
const HEARTBEAT_COMMAND = path.join(ROOT, "bin/slotwise-heartbeat.js")

let worker: LocalWorker | undefined
let session: Session | undefined
let page: Page
let call: AdminCall

const minuteOf = (ms: number) => Math.floor(ms / MINUTE) * MINUTE
const jobRow = (name: string) => page.locator(`${byTestId("job-row")}[data-job="${name}"]`)
const heartbeatStatus = () => page.locator(byTestId("heartbeat-status"))

/** Waits for the next minute when this one ends within 10 s, so that slots computed now stay in their minute. */
async function awayFromMinuteEdge() {
  const left = MINUTE - (Date.now() % MINUTE)
  if (left < 10_000) await sleep(left + 50)
}

/** Refreshes the health panel and waits until it has rendered the answer. */
async function refreshHealth() {
  await page.evaluate(() => document.getElementById("health")?.removeAttribute("data-ok"))
  await page.click(byTestId("health-refresh"))
  await page.locator("#health[data-ok]").waitFor({ state: "attached" })
}

beforeAll(async () => {
  worker = await startWorker()
  call = adminClient(worker)
  // Exactly what npm start seeds: usage, a trial, a webhook to a closed port, and a ping of it.
  await seedDemo(worker.origin, worker.token)
  session = await openBrowser()
  page = session.page
  await signIn(page, worker)
}, 240_000)

afterAll(async () => {
  await session?.browser.close().catch(() => {})
  await worker?.stop()
}, 60_000)

describe("the dashboard for an operator", () => {
  afterEach(() => {
    expect(session?.errors()).toEqual([])
  })

  test("before any heartbeat, health says nothing has recorded one yet", async () => {
    await heartbeatStatus().waitFor()
    expect(await heartbeatStatus().textContent()).toBe("no record yet")
    expect(await jobRow(ROLL_UP).locator(byTestId("job-last-run")).textContent()).toBe("no run recorded")
  })

  test("shows a job's runs after a failed and a successful run: outcome, duration and the error", async () => {
    await awayFromMinuteEdge()
    const now = minuteOf(Date.now())
    // The roll-up fails while its table is away, then runs again once it is back.
    await worker!.d1("ALTER TABLE usage_events RENAME TO usage_events_away")
    await worker!.beat(now - 4 * MINUTE)
    await worker!.d1("ALTER TABLE usage_events_away RENAME TO usage_events")
    await worker!.beat(now - 3 * MINUTE)

    await page.click(byTestId("jobs-refresh"))
    await jobRow(ROLL_UP).locator(byTestId("job-outcome"), { hasText: "ran" }).waitFor()
    await jobRow(ROLL_UP).locator(byTestId("job-runs")).click()
    expect(await page.locator(byTestId("runs-name")).textContent()).toBe(ROLL_UP)
    const rows = page.locator(byTestId("run-row"))
    await rows.first().waitFor()
    // Newest first: the slots since, which no heartbeat fired (gaps: two, or three once this minute is
    // over), then the run, then the failure.
    const statuses = await rows.evaluateAll((all) => all.map((row) => (row as HTMLElement).dataset.status))
    const gaps = statuses.length - 2
    expect(gaps).toBeGreaterThanOrEqual(2)
    expect(statuses).toEqual([...Array(gaps).fill("missed"), "ran", "failed"])
    const slotOf = async (n: number) => rows.nth(n).locator("time").first().getAttribute("datetime")
    expect(await slotOf(gaps)).toBe(new Date(now - 3 * MINUTE).toISOString())
    expect(await slotOf(gaps + 1)).toBe(new Date(now - 4 * MINUTE).toISOString())
    expect(await rows.nth(0).locator(byTestId("run-error")).textContent()).toMatch(/heartbeat did not fire/)
    expect(await rows.nth(gaps).locator("td").nth(2).textContent()).toMatch(/^\d+ ms$/)
    expect(
      await rows
        .nth(gaps + 1)
        .locator(byTestId("run-error"))
        .textContent(),
    ).toMatch(/no such table: usage_events/)
    expect(await jobRow(ROLL_UP).locator(byTestId("job-last-run")).textContent()).toContain(`${gaps} missed`)
  })

  test("turns health red when a slot after the heartbeat's last fire went unclaimed", async () => {
    await refreshHealth()
    expect(await heartbeatStatus().textContent()).toBe("late")
    expect(await page.locator("#health").getAttribute("data-ok")).toBe("false")
    expect(await page.locator(byTestId("health-heartbeat")).textContent()).toContain("missed the")
  })

  test("stays red when another Cron Trigger of the Worker fires: the heartbeat runs nothing and warns naming it", async () => {
    await worker!.beat(Date.now(), "0 3 * * *")
    await refreshHealth()
    expect(await heartbeatStatus().textContent()).toBe("late")
    // workerd's log lines reach wrangler's output a moment after the answer.
    await expect
      .poll(() => worker!.log(), { timeout: 5_000 })
      .toMatch(/"message":"heartbeat: not its cron","cron":"0 3 \* \* \*"/)
  })

  test("turns health green once slotwise-heartbeat fires, and says no stream is behind", async () => {
    // The package's command, as an adopter runs it beside wrangler dev (npm start runs the same module).
    const command = spawn(process.execPath, [HEARTBEAT_COMMAND, "--url", worker!.origin, "--beats", "1"], {
      stdio: ["ignore", "pipe", "inherit"],
    })
    let output = ""
    command.stdout.on("data", (chunk) => {
      output += chunk
    })
    const [code] = await once(command, "exit")
    expect(code).toBe(0)
    expect(output).toMatch(/slotwise-heartbeat: heartbeat "\* \* \* \* \*" \S+Z: HTTP 200 ok\n/)
    await refreshHealth()
    expect(await heartbeatStatus().textContent()).toBe("alive")
    expect(await page.locator("#health").getAttribute("data-ok")).toBe("true")
    expect(await page.locator(byTestId("heartbeat-last")).textContent()).toMatch(/^last fired \d+ s ago$/)
    expect(await page.locator(byTestId("watchdog-status")).textContent()).toBe("0 overdue")
  })

  test("shows the demo's failing webhook retrying, in health and in its stream, with nothing overdue", async () => {
    const deadline = Date.now() + 20_000
    await refreshHealth()
    while ((await page.locator(byTestId("retrying-count")).textContent()) === "0 retrying" && Date.now() < deadline) {
      await sleep(500)
      await refreshHealth()
    }
    expect(await page.locator(byTestId("retrying-count")).textContent()).toMatch(/^[1-9]\d* retrying$/)

    await page.locator(`${byTestId("stream-link")}[data-stream="${DEMO}"]`).click()
    const retrying = page.locator(byTestId("schedule-row"), { has: page.locator(byTestId("schedule-retrying")) })
    await retrying.first().waitFor()
    expect(await retrying.first().locator(byTestId("schedule-error")).textContent()).toContain("127.0.0.1:9")
    const count = async (what: string) =>
      Number((await page.locator(byTestId(`count-${what}`)).textContent())?.replace(/\D+/g, ""))
    expect(await count("scheduled")).toBeGreaterThanOrEqual(3)
    expect(await count("retrying")).toBeGreaterThanOrEqual(1)
    expect(await page.locator(byTestId("stream-overdue")).textContent()).toBe("nothing overdue")
  })

  test("auto-refresh is off by default, picks up a new delivery when on, and pauses while the tab is hidden", async () => {
    const report = page.locator(`${byTestId("schedule-row")}[data-id="usage-report"]`)
    await report.locator(byTestId("schedule-events")).click()
    await page.locator(byTestId("events-panel")).waitFor()
    // The newest delivery's seq (a schedule keeps its newest 12 events, so their count stops growing).
    const newestFired = () =>
      page.evaluate(() => {
        const row = document.querySelector('[data-testid="event-row"][data-type="schedule/fired"] td')
        return Number(row?.textContent ?? 0)
      })
    const before = await newestFired()
    expect(await page.locator(byTestId("auto-refresh")).isChecked()).toBe(false)

    await page.check(byTestId("auto-refresh"))
    await call("POST", `/streams/${DEMO}/schedules/usage-report/trigger`)
    // No click: the next refresh (every 10 s) shows the delivery.
    await page.waitForFunction(
      (seq) =>
        Number(document.querySelector('[data-testid="event-row"][data-type="schedule/fired"] td')?.textContent ?? 0) >
        seq,
      before,
      { timeout: AUTO_REFRESH_MS * 2.5 },
    )

    const asked: string[] = []
    page.on("request", (request) => {
      if (request.url().includes("/admin/")) asked.push(request.url())
    })
    const visibility = (hidden: boolean) =>
      page.evaluate((hide) => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => hide })
        document.dispatchEvent(new Event("visibilitychange"))
      }, hidden)
    await visibility(true)
    asked.length = 0
    await sleep(AUTO_REFRESH_MS * 1.3)
    expect(asked).toEqual([])
    // Shown again, it refreshes at once.
    const refreshed = page.waitForRequest((request) => request.url().endsWith("/admin/health"), { timeout: 2_000 })
    await visibility(false)
    await refreshed
    await page.uncheck(byTestId("auto-refresh"))
  })

  // Only registered on request (npm run screenshot), so a normal run reports no skipped test.
  if (process.env.SLOTWISE_SCREENSHOT === "1") {
    test("screenshots a job's runs into docs/", async () => {
      await jobRow(ROLL_UP).locator(byTestId("job-runs")).click()
      await page.locator(byTestId("runs-panel")).scrollIntoViewIfNeeded()
      await page.mouse.move(0, 0)
      await mkdir(path.dirname(SCREENSHOT), { recursive: true })
      await page.screenshot({ path: SCREENSHOT })
    })
  }
})
