import { existsSync } from "node:fs"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"

/** Debian's Chromium (apt-get install chromium); never a browser downloaded by playwright. */
export const CHROMIUM = process.env.SLOTWISE_CHROMIUM ?? "/usr/bin/chromium"
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
]
export const UI_TIMEOUT_MS = 15_000

/** A test hook; the page's own code never selects by it. */
export const byTestId = (testid: string) => `[data-testid="${testid}"]`

export interface Session {
  browser: Browser
  context: BrowserContext
  page: Page
  /** Script errors and CSP refusals seen in the page since the last call. */
  errors: () => string[]
}

/** Chromium with one page, in Berlin time (so the page's UTC and local renderings differ), collecting page errors. */
export async function openBrowser(): Promise<Session> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set SLOTWISE_CHROMIUM)`)
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 })
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Berlin" })
  context.setDefaultTimeout(UI_TIMEOUT_MS)
  const page = await context.newPage()
  const seen: string[] = []
  page.on("pageerror", (error) => seen.push(error.message))
  // A CSP refusal is a console error; the 401, 404 and 409 answers the tests provoke are expected.
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) seen.push(message.text())
  })
  return { browser, context, page, errors: () => seen.splice(0) }
}
