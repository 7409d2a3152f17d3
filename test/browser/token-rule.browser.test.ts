import type { Browser } from "playwright-core"
import { afterAll, beforeAll, expect, test } from "vitest"
import { launchChromium } from "./chromium.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

/** Right in .dev.vars, but no Authorization header can carry its space and colon. */
const UNUSABLE = "pa$$ word:1"

let worker: LocalWorker | undefined
let browser: Browser | undefined

beforeAll(async () => {
  worker = await startWorker(UNUSABLE)
  browser = await launchChromium()
}, 240_000)

afterAll(async () => {
  await browser?.close().catch(() => {})
  await worker?.stop()
}, 60_000)

test("the token form shows the 503 naming the token rule when ADMIN_TOKEN breaks it", async () => {
  const page = await (await browser!.newContext()).newPage()
  await page.goto(`${worker!.origin}/admin`)
  await page.locator('[data-testid="token-form"]').waitFor()
  await page.fill('[data-testid="token-input"]', UNUSABLE)
  await page.click('[data-testid="token-submit"]')
  const message = page.locator('[data-testid="token-message"]', { hasText: "RFC 6750" })
  await message.waitFor({ timeout: 15_000 })
  expect(await message.textContent()).toMatch(/^ADMIN_TOKEN must be an RFC 6750 b64token/)
  expect(await page.locator('[data-testid="app"]').isHidden()).toBe(true)
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
})
