import { mkdir } from "node:fs/promises"
import path from "node:path"
import type { Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { ROOT } from "../../scripts/dev/wrangler.ts"
import type { JobHistory, StreamHistory } from "../../src/infra/admin/json.ts"
import { type AdminCall, adminClient, signIn } from "./admin.ts"
import { byTestId, openBrowser, type Session } from "./chromium.ts"
import { STREAM, seed } from "./seed.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

/** The charts of a job's week and a stream's deliveries, drawn from the rollups the admin API answers. */

const SCREENSHOT = path.join(ROOT, "docs/history.png")
const HOUR = 3_600_000
const MINUTE = 60_000
const CLOSE = "billing.close-expired-trials"

let worker: LocalWorker | undefined
let session: Session | undefined
let page: Page
let call: AdminCall

/** 03:00 UTC `daysAgo` days before today: the nightly job's slot. */
const night = (daysAgo: number) => {
  const today = new Date()
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - daysAgo, 3)
}

/** The nights of the week as their releases would have written them; 4 nights ago no run took the slot. */
const NIGHTS = [
  { daysAgo: 6, kind: "ran", counts: [1, 0, 0, 0], ms: 1_200, runs: "0:r:1200" },
  { daysAgo: 5, kind: "failed", counts: [0, 1, 0, 0], ms: 90, runs: "0:f:90" },
  { daysAgo: 3, kind: "failed", counts: [0, 0, 1, 0], ms: 300_000, runs: "0:t:300000" },
  { daysAgo: 2, kind: "skipped", counts: [0, 0, 0, 1], ms: 0, runs: "0:s:0" },
  { daysAgo: 1, kind: "ran", counts: [1, 0, 0, 0], ms: 800, runs: "0:r:800" },
] as const

/** Each drawn mark's data attributes and its <title>, in the page's order. */
const marks = (testid: string) =>
  page.locator(byTestId(testid)).evaluateAll((nodes) =>
    nodes.map((node) => ({
      data: Object.fromEntries(
        [...node.attributes]
          .filter((a) => a.name.startsWith("data-") && a.name !== "data-testid")
          .map((a) => [a.name.slice(5), a.value]),
      ) as Record<string, string>,
      title: node.querySelector("title")?.textContent ?? "",
      shape: node.lastElementChild?.tagName ?? "",
      height: (node.lastElementChild as SVGGraphicsElement | null)?.getBBox().height ?? 0,
    })),
  )

beforeAll(async () => {
  worker = await startWorker()
  call = adminClient(worker)
  await seed(call)
  const values = NIGHTS.map(
    ({ daysAgo, counts, ms, runs }) => `('${CLOSE}', ${night(daysAgo)}, ${counts.join(", ")}, ${ms}, '${runs}')`,
  )
  await worker.d1(
    `INSERT INTO jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs) VALUES ${values.join(", ")}`,
  )
  session = await openBrowser()
  page = session.page
  await signIn(page, worker)
}, 240_000)

afterAll(async () => {
  await session?.browser.close().catch(() => {})
  await worker?.stop()
}, 60_000)

describe("the history charts", () => {
  afterEach(() => {
    expect(session?.errors()).toEqual([])
  })

  test("draw a job's week of slots as its hour rows say, a missed night standing out, each mark titled", async () => {
    await page
      .locator(`${byTestId("job-row")}[data-job="${CLOSE}"]`)
      .locator(byTestId("job-runs"))
      .click()
    await page.locator(byTestId("slot-mark")).first().waitFor()
    const history = await call<JobHistory>("GET", `/jobs/${CLOSE}/history?days=7`)
    const drawn = await marks("slot-mark")
    expect(drawn.map((mark) => Number(mark.data.hour))).toEqual(history.hours.map((hour) => hour.hour))
    const at = (daysAgo: number) => drawn.find((mark) => Number(mark.data.hour) === night(daysAgo))
    for (const { daysAgo, kind } of NIGHTS) expect(at(daysAgo)?.data.kind, `${daysAgo} nights ago`).toBe(kind)
    expect(at(4)).toMatchObject({ data: { kind: "missed" }, shape: "path" })
    // The missed night is a cross taller than the strip's blocks, so it shows without colour.
    expect(at(4)?.height).toBeGreaterThan(at(6)?.height ?? Infinity)
    for (const hour of history.hours) {
      const title = drawn.find((mark) => Number(mark.data.hour) === hour.hour)?.title
      expect(title).toContain(`${hour.due} due · ran ${hour.ran} · failed ${hour.failed} · timed out ${hour.timedOut}`)
      expect(title).toContain(`skipped ${hour.skipped} · missed ${hour.missed}`)
    }
    expect(at(3)?.title).toContain("median 5 min · max 5 min")
  })

  test("draw the job's duration per hour: median and max as its hour rows say", async () => {
    const history = await call<JobHistory>("GET", `/jobs/${CLOSE}/history?days=7`)
    const drawn = await marks("duration-mark")
    const timed = history.hours.filter((hour) => hour.medianMs !== null)
    expect(drawn.map(({ data }) => [data.hour, data.median, data.max].map(Number))).toEqual(
      timed.map(({ hour, medianMs, maxMs }) => [hour, medianMs, maxMs]),
    )
    expect(timed.map(({ hour, maxMs }) => [hour, maxMs])).toEqual(
      NIGHTS.filter(({ kind }) => kind !== "skipped").map(({ daysAgo, ms }) => [night(daysAgo), ms]),
    )
  })

  test("draw a stream's deliveries, failures and lateness per minute as its rollup says", async () => {
    await page.locator(`${byTestId("stream-link")}[data-stream="${STREAM}"]`).click()
    await page.locator(byTestId("delivery-mark")).first().waitFor()
    const drawn = await marks("delivery-mark")
    const history = await call<StreamHistory>("GET", `/streams/${STREAM}/history`)
    // Minutes that ended before the page drew them are final; the current one may still be counting.
    const done = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE
    const final = (at: number) => at < done
    const shown = drawn
      .filter((mark) => final(Number(mark.data.at)))
      .map(({ data }) => [data.at, data.delivered, data.retried, data.failed].map(Number))
    expect(shown).toEqual(
      history.points.filter((p) => final(p.at)).map((p) => [p.at, p.delivered, p.retried, p.failed]),
    )
    expect(history.points.some((p) => p.retried > 0)).toBe(true)
    const late = await marks("lateness-mark")
    expect(
      late
        .filter((mark) => final(Number(mark.data.at)))
        .map(({ data }) => [data.at, data.median, data.max].map(Number)),
    ).toEqual(
      history.points.filter((p) => final(p.at) && p.lateMaxMs !== null).map((p) => [p.at, p.lateMedianMs, p.lateMaxMs]),
    )
  })

  test("switch the stream's charts to 30 days per hour", async () => {
    await page.click(byTestId("history-month"))
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="stream-charts"] svg')?.getAttribute("aria-label")?.includes("30 days"),
    )
    const history = await call<StreamHistory>("GET", `/streams/${STREAM}/history?range=month`)
    const drawn = await marks("delivery-mark")
    expect(drawn.map((mark) => Number(mark.data.at))).toEqual(history.points.map((p) => p.at))
    expect(history.points.every((p) => p.at % HOUR === 0)).toBe(true)
    await page.click(byTestId("history-day"))
  })

  // Only registered on request (npm run screenshot), so a normal run reports no skipped test.
  if (process.env.SLOTWISE_SCREENSHOT === "1") {
    test("screenshots the charts into docs/", async () => {
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="stream-charts"] svg')?.getAttribute("aria-label")?.includes("24 h"),
      )
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.mouse.move(0, 0)
      await mkdir(path.dirname(SCREENSHOT), { recursive: true })
      await page.screenshot({ path: SCREENSHOT, fullPage: true })
    })
  }
})
