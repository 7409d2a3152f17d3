import type { Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import type { StreamHistory } from "../../src/infra/admin/answers.ts"
import type { BackfillReport, ScheduleView } from "../../src/infra/schedules/contract/view.ts"
import { type AdminCall, adminClient, signIn } from "./admin.ts"
import { byTestId, openBrowser, type Session } from "./chromium.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

/** A schedule's window, count, jitter, a cancel's reason and a backfill, as a person sees and uses them on the dashboard. */

const STREAM = "rules-demo"
const HOUR = 3_600_000
/** The hourly schedule's cadence starts here: ten whole hours ago, so past occurrences exist to backfill. */
const START = Math.floor(Date.now() / HOUR) * HOUR - 10 * HOUR

let worker: LocalWorker | undefined
let session: Session | undefined
let page: Page
let call: AdminCall

const scheduleRow = (id: string) => page.locator(`${byTestId("schedule-row")}[data-id="${id}"]`)
const detail = (id: string) => page.locator(byTestId(id))
const get = (id: string) =>
  call<{ schedule: ScheduleView }>("GET", `/streams/${STREAM}/schedules/${id}`).then((r) => r.schedule)

/** Polls `check` until it holds: the local stream delivers on its own alarm, within seconds. */
async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** An epoch time as a datetime-local input takes it, in the page's own zone (Europe/Berlin). */
const localInput = (ms: number) =>
  page.evaluate((time) => {
    const d = new Date(time)
    const pad = (n: number) => String(n).padStart(2, "0")
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  }, ms)

beforeAll(async () => {
  worker = await startWorker()
  call = adminClient(worker)
  const put = (id: string, definition: Record<string, unknown>) =>
    call("PUT", `/streams/${STREAM}/schedules/${id}`, definition)
  const report = { consumer: "billing.usage-report", payload: { account: STREAM } }
  await put("hourly", { ...report, every: "1 hour", startAt: START, endAt: START + 30 * 24 * HOUR, times: 500 })
  await put("spread", { ...report, every: "1 hour", jitter: "20 minutes" })
  await put("once", { ...report, at: Date.now() + 48 * HOUR })
  session = await openBrowser()
  page = session.page
  await signIn(page, worker)
  await page.locator(`${byTestId("stream-link")}[data-stream="${STREAM}"]`).click()
  await scheduleRow("hourly").waitFor()
}, 240_000)

afterAll(async () => {
  await session?.browser.close().catch(() => {})
  await worker?.stop()
}, 60_000)

describe("a schedule's rules on the dashboard", () => {
  afterEach(() => {
    expect(session?.errors()).toEqual([])
  })

  test("shows the count in the row, and the window, the count and both times in the detail", async () => {
    expect(await scheduleRow("hourly").textContent()).toContain("delivered 0 of 500")
    await scheduleRow("hourly").locator(byTestId("schedule-events")).click()
    await detail("detail-window").waitFor()
    const hourly = await get("hourly")
    expect(await detail("detail-count").textContent()).toBe("0 of 500 delivered")
    expect(await detail("detail-window").textContent()).toContain(new Date(START).toISOString().slice(0, 10))
    expect(await detail("detail-cadence").locator("time").getAttribute("datetime")).toBe(
      new Date(hourly.cadenceAt).toISOString(),
    )

    await scheduleRow("spread").locator(byTestId("schedule-events")).click()
    await detail("detail-jitter").waitFor()
    expect(await detail("detail-jitter").textContent()).toBe("up to 20 min")
    const spread = await get("spread")
    expect(await detail("detail-next").locator("time").getAttribute("datetime")).toBe(
      new Date(spread.nextAt).toISOString(),
    )
    expect(await detail("detail-cadence").locator("time").getAttribute("datetime")).toBe(
      new Date(spread.cadenceAt).toISOString(),
    )
  })

  test("previews a backfill's count, then backfills after confirming; a one-shot is not offered one", async () => {
    await scheduleRow("once").locator(byTestId("schedule-events")).click()
    await page.locator(byTestId("events-name"), { hasText: "once" }).waitFor()
    expect(await page.locator(byTestId("backfill-form")).isHidden()).toBe(true)

    await scheduleRow("hourly").locator(byTestId("schedule-events")).click()
    await page.locator(byTestId("backfill-form")).waitFor()
    expect(await page.locator(byTestId("backfill-run")).isDisabled()).toBe(true)
    await page.fill(byTestId("backfill-from"), await localInput(START + 2 * HOUR))
    await page.fill(byTestId("backfill-to"), await localInput(START + 4 * HOUR))
    await page.click(byTestId("backfill-preview"))
    await page.locator(byTestId("backfill-count"), { hasText: "3 occurrences" }).waitFor()
    // The preview wrote nothing.
    const { schedules: before } = await call<{ schedules: ScheduleView[] }>("GET", `/streams/${STREAM}/schedules`)
    expect(before.filter((s) => s.backfillOf !== null)).toEqual([])

    let question = ""
    page.once("dialog", (dialog) => {
      question = dialog.message()
      void dialog.accept()
    })
    await page.click(byTestId("backfill-run"))
    await page
      .locator(`${byTestId("status")}[data-kind="ok"]`, { hasText: "backfilled hourly: 3 occurrences" })
      .waitFor()
    expect(question).toContain("3 occurrences")
    const { schedules } = await call<{ schedules: ScheduleView[] }>("GET", `/streams/${STREAM}/schedules`)
    const backfilled = schedules.filter((s) => s.backfillOf === "hourly")
    expect(backfilled.map((s) => s.timing)).toEqual([2, 3, 4].map((h) => ({ kind: "at", atMs: START + h * HOUR })))
    // A preview of a range naming nothing leaves Backfill disabled.
    await page.fill(byTestId("backfill-from"), await localInput(START + 2 * HOUR + 60_000))
    await page.fill(byTestId("backfill-to"), await localInput(START + 2 * HOUR + 120_000))
    await page.click(byTestId("backfill-preview"))
    await page.locator(byTestId("backfill-count"), { hasText: "0 occurrences" }).waitFor()
    expect(await page.locator(byTestId("backfill-run")).isDisabled()).toBe(true)
    const report = await call<{ backfill: BackfillReport }>("POST", `/streams/${STREAM}/schedules/hourly/backfill`, {
      from: START + 2 * HOUR,
      to: START + 4 * HOUR,
      dryRun: true,
    })
    expect(report.backfill.count).toBe(3)
  })

  test("shows the backfill's deliveries apart in the stream's chart, and not as lateness", async () => {
    const ids = (await call<{ schedules: ScheduleView[] }>("GET", `/streams/${STREAM}/schedules`)).schedules
      .filter((s) => s.backfillOf === "hourly")
      .map((s) => s.id)
    expect(ids).toHaveLength(3)
    await until(async () => (await Promise.all(ids.map(get))).every((s) => s.state === "completed"))
    const history = await call<StreamHistory>("GET", `/streams/${STREAM}/history`)
    expect(history.points.reduce((n, p) => n + p.backfilled, 0)).toBe(3)
    // Hours old on purpose: no minute whose deliveries were all backfilled has a lateness.
    for (const p of history.points.filter((p) => p.backfilled === p.delivered)) expect(p.lateMaxMs).toBeNull()
    await page.click(byTestId("history-day"))
    const counts = page.locator(`${byTestId("stream-charts")} ${byTestId("chart")}`).nth(0)
    await counts.locator(byTestId("chart-note"), { hasText: "3 backfilled, not counted as late" }).waitFor()
    const marked = await page
      .locator(byTestId("delivery-mark"))
      .evaluateAll((nodes) => nodes.reduce((n, node) => n + Number((node as HTMLElement).dataset.backfilled), 0))
    expect(marked).toBe(3)
  })

  test("cancels with a reason typed into its confirmation, and shows it in the row and the detail", async () => {
    let question = ""
    page.once("dialog", (dialog) => {
      question = dialog.message()
      void dialog.accept("billing dispute: paused until it is settled")
    })
    await scheduleRow("spread").locator(byTestId("schedule-cancel")).click()
    await scheduleRow("spread").locator(byTestId("schedule-state"), { hasText: "cancelled" }).waitFor()
    expect(question).toContain("Why")
    expect(await scheduleRow("spread").locator(byTestId("schedule-reason")).textContent()).toBe(
      "billing dispute: paused until it is settled",
    )
    await detail("detail-reason").waitFor()
    expect(await detail("detail-reason").textContent()).toBe("billing dispute: paused until it is settled")
    expect((await get("spread")).cancelReason).toBe("billing dispute: paused until it is settled")
    await page
      .locator(`${byTestId("event-row")}[data-type="schedule/cancelled"]`, { hasText: "billing dispute" })
      .waitFor()

    // Dismissing the prompt cancels nothing.
    page.once("dialog", (dialog) => void dialog.dismiss())
    await scheduleRow("hourly").locator(byTestId("schedule-cancel")).click()
    expect((await get("hourly")).state).toBe("scheduled")
  })
})
