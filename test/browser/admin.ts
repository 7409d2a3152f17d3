import type { Page } from "playwright-core"
import { byTestId } from "./chromium.ts"
import type { LocalWorker } from "./worker.ts"

const REQUEST_TIMEOUT_MS = 15_000

export type AdminCall = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>

/** The admin API as the test's setup uses it: JSON in and out, any non-2xx answer throws with its body. */
export function adminClient(worker: LocalWorker): AdminCall {
  return async (method, path, body) => {
    const res = await fetch(`${worker.origin}/admin${path}`, {
      method,
      headers: {
        authorization: `Bearer ${worker.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} /admin${path} answered ${res.status}: ${text}`)
    return JSON.parse(text)
  }
}

/** Opens the dashboard and gives it the worker's token, as a person does; answers once the app shows. */
export async function signIn(page: Page, worker: LocalWorker): Promise<void> {
  await page.goto(`${worker.origin}/admin`)
  await page.fill(byTestId("token-input"), worker.token)
  await page.click(byTestId("token-submit"))
  await page.locator(byTestId("app")).waitFor()
}
