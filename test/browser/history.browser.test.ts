import { mkdir } from "node:fs/promises"
import path from "node:path"
import type { Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { ROOT } from "../../scripts/dev/wrangler.ts"
import type { JobHistory, StreamHistory } from "../../src/infra/admin/answers.ts"
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

/** The nightly job's first run was 6 nights ago: its week's charts start there, and say so. */
const SINCE_FIRST = `since its first run, ${new Date(night(6)).toISOString().slice(0, 16).replace("T", " ")} UTC (younger than 7 days)`

/** billing.roll-up-usage (every minute), first run mid-hour: `T` the minute the data is written. */
const ROLL = "billing.roll-up-usage"
const T = Math.floor(Date.now() / MINUTE) * MINUTE
/** Its runs by minutes before T: first run 12 minutes ago, two failed, two slots missed in between. */
const ROLL_RUNS = [
  { ago: 12, outcome: "ran" },
  { ago: 11, outcome: "ran" },
  { ago: 10, outcome: "failed" },
  { ago: 9, outcome: "ran" },
  { ago: 8, outcome: "ran" },
  { ago: 5, outcome: "ran" },
  { ago: 4, outcome: "failed" },
  { ago: 3, outcome: "ran" },
  { ago: 2, outcome: "ran" },
] as const
const FIRST_RUN = T - 12 * MINUTE
const LAST_RUN = T - 2 * MINUTE

/** The lease row and hour rows the releases of ROLL_RUNS would have written. */
function rollUpRows(): string[] {
  const records = ROLL_RUNS.map(({ ago, outcome }, i) => ({
    slot: T - ago * MINUTE,
    runId: `run-${i}`,
    outcome,
    ms: 40 + i,
    finishedAt: T - ago * MINUTE + 1_000,
    error: outcome === "failed" ? "usage store unavailable" : null,
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
    const max = Math.max(...runs.map((run) => run.ms))
    return `('${ROLL}', ${hour}, ${count("ran")}, ${count("failed")}, 0, 0, ${max}, '${entries}')`
  })
  return [
    `INSERT INTO jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs) VALUES ${hourRows.join(", ")}`,
    `INSERT INTO jobs_leases (name, last_slot, lease_until, holder, lease_ms, last_run_slot, last_run_id, last_outcome, last_ms, last_finished_at, last_error, run_history) VALUES ('${ROLL}', ${last.slot}, NULL, NULL, 90000, ${last.slot}, '${last.runId}', '${last.outcome}', ${last.ms}, ${last.finishedAt}, NULL, '${JSON.stringify(records)}')`,
  ]
}

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
  for (const statement of rollUpRows()) await worker.d1(statement)
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

  test("title each chart, give its legend and its figures as text", async () => {
    const titles = await page.locator(`${byTestId("job-charts")} ${byTestId("chart-title")}`).allTextContents()
    expect(titles).toEqual([
      expect.stringMatching(/^Today \(\d{4}-\d{2}-\d{2} UTC\), one mark per slot of billing\.close-expired-trials$/),
      `Slots of ${CLOSE}, by hour, ${SINCE_FIRST}`,
      `Duration of ${CLOSE}'s runs, median and max per hour, ${SINCE_FIRST}`,
    ])
    for (const title of await page.locator(`${byTestId("job-charts")} ${byTestId("chart-title")}`).all())
      expect(await title.isVisible()).toBe(true)
    const legend = await page
      .locator(`${byTestId("job-charts")} ${byTestId("chart")}`)
      .nth(1)
      .locator(byTestId("legend-entry"))
      .allTextContents()
    expect(legend).toEqual(["ran", "failed or timed out", "skipped", "missed", "paused"])
    const notes = await page.locator(`${byTestId("job-charts")} ${byTestId("chart-note")}`).allTextContents()
    // Over the week: the missed nights (today's too, once 03:01 UTC is past) and two failed ones (one timed out), in words.
    const history = await call<JobHistory>("GET", `/jobs/${CLOSE}/history?days=7`)
    const missed = history.hours.reduce((n, hour) => n + hour.missed, 0)
    expect(missed).toBeGreaterThanOrEqual(1)
    expect(notes).toContain(`${missed} slots missed and 2 failed ${SINCE_FIRST}`)
    expect(notes).toContain(`Longest ${SINCE_FIRST}: 5 min`)
  })

  test("tell no outage before a job's first run, show each of today's slots, and agree with the Runs table", async () => {
    await page
      .locator(`${byTestId("job-row")}[data-job="${ROLL}"]`)
      .locator(byTestId("job-runs"))
      .click()
    await page.waitForFunction(
      (job) =>
        document.querySelector('[data-testid="runs-name"]')?.textContent === job &&
        document.querySelectorAll('[data-testid="today-mark"]').length > 96,
      ROLL,
    )
    const history = await call<JobHistory>("GET", `/jobs/${ROLL}/history?days=7`)
    const ran = new Set(ROLL_RUNS.map(({ ago }) => T - ago * MINUTE))
    // Missed: only the slots from the first run on that no run took, up to a minute before now.
    let missed = 0
    for (let slot = FIRST_RUN; slot <= history.now - MINUTE; slot += MINUTE) if (!ran.has(slot)) missed++
    expect(history.hours.reduce((n, hour) => n + hour.missed, 0)).toBe(missed)
    expect(history.hours.reduce((n, hour) => n + hour.failed, 0)).toBe(2)
    expect(history.knownSince).toBe(FIRST_RUN)
    const day = history.now - (history.now % (24 * HOUR))
    expect(history.today.map((slot) => slot.slot)).toEqual(Array.from({ length: 1_440 }, (_, i) => day + i * MINUTE))
    for (const { slot, status } of history.today) {
      if (slot < FIRST_RUN) expect(status, new Date(slot).toISOString()).toBe("unknown")
    }
    // One mark per slot of today, drawn as the API says.
    const drawn = await marks("today-mark")
    expect(drawn.map(({ data }) => [Number(data.slot), data.status])).toEqual(
      history.today.map((slot) => [slot.slot, slot.status]),
    )
    // An hour whose failures share it with missed slots still shows them: a hatched block under the cross.
    const hours = await page.locator(byTestId("slot-mark")).evaluateAll((nodes) =>
      nodes.map((node) => ({
        failed: Number((node as SVGElement).dataset.failed),
        kind: (node as SVGElement).dataset.kind,
        hatched: node.querySelector('rect[fill^="url(#hatch"]') !== null,
      })),
    )
    expect(hours.filter((hour) => hour.failed > 0).every((hour) => hour.hatched)).toBe(true)
    expect(hours.some((hour) => hour.failed > 0 && hour.kind === "missed")).toBe(true)
    // The Runs table says of each slot what the chart says.
    const rows = await page
      .locator(byTestId("run-row"))
      .evaluateAll((nodes) =>
        nodes.map((node) => [Number((node as HTMLElement).dataset.slot), (node as HTMLElement).dataset.status]),
      )
    const today = new Map(history.today.map((slot) => [slot.slot, slot.status]))
    const known = rows.filter(
      ([slot]) => (slot as number) >= FIRST_RUN && (slot as number) <= LAST_RUN && today.has(slot as number),
    )
    expect(known.length).toBeGreaterThan(0)
    for (const [slot, status] of known)
      expect(today.get(slot as number), new Date(slot as number).toISOString()).toBe(status)
    expect(known.filter(([, status]) => status === "missed").map(([slot]) => slot)).toEqual(
      [T - 6 * MINUTE, T - 7 * MINUTE].filter((slot) => today.has(slot)),
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

  test("title the stream's charts, tell retried (hatched) from failed (solid), and give its lateness as text", async () => {
    const charts = page.locator(`${byTestId("stream-charts")} ${byTestId("chart")}`)
    expect(await charts.locator(byTestId("chart-title")).allTextContents()).toEqual([
      `Deliveries, retries and failures of ${STREAM} per minute, over 24 h`,
      `Lateness of ${STREAM}'s deliveries against their due times, log scale`,
    ])
    expect(await charts.nth(0).locator(byTestId("legend-entry")).allTextContents()).toEqual([
      "delivered (above the line)",
      "retried (hatched, below)",
      "failed (solid, below)",
    ])
    const retried = charts.nth(0).locator(`${byTestId("legend-entry")}[data-name="retried (hatched, below)"] rect`)
    expect(await retried.getAttribute("fill")).toMatch(/^url\(#hatch-\d+\)$/)
    expect(await charts.nth(0).textContent()).toMatch(/top: \d+ delivered in one minute/)
    expect(await charts.nth(0).textContent()).not.toMatch(/ a hour| a minute/)
    const notes = await charts.nth(1).locator(byTestId("chart-note")).allTextContents()
    expect(notes[0]).toMatch(/^Latest minute with deliveries \(.+ UTC\): median \d.* · p99 \d.* · max \d/)
    expect(notes[1]).toMatch(/^Highest p99 over 24 h: \d/)
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
