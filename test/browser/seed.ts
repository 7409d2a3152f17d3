import { setTimeout as sleep } from "node:timers/promises"
import type { AdminCall } from "./admin.ts"

/** The stream the test opens: working reports, a webhook that cannot connect, a cron and a one-off. */
export const STREAM = "acme-corp"
/** A webhook with maxAttempts 2: it ends "failed". */
export const FAILING_STREAM = "globex"
/** More schedules than one page shows. */
export const BULK_STREAM = "umbrella-labs"
export const BULK_SIZE = 60
/** Nothing listens on the discard port: every POST fails to connect. */
export const DEAD_URL = "http://127.0.0.1:9/usage"

const HOUR_MS = 3_600_000
const SETTLE_TIMEOUT_MS = 30_000

interface ScheduleView {
  state: string
  lastError: string | null
  attempts: number
}

type Definition = Record<string, unknown>

/** Realistic data through the admin API, then waits until the deliveries it starts have settled. */
export async function seed(call: AdminCall): Promise<void> {
  const put = (stream: string, id: string, definition: Definition) =>
    call("PUT", `/streams/${stream}/schedules/${id}`, definition)
  const report = (account: string) => ({ consumer: "billing.usage-report", payload: { account } })
  const webhook = (account: string) => ({ consumer: "billing.usage-webhook", payload: { account, url: DEAD_URL } })
  const inThreeDays = Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + 72 * HOUR_MS

  await put(STREAM, "usage-report", { ...report(STREAM), every: "1 minute" })
  await put(STREAM, "usage-webhook", { ...webhook(STREAM), every: "1 minute" })
  await put(STREAM, "daily-digest", { ...report(STREAM), cron: "0 9 * * *", timezone: "Europe/Berlin" })
  await put(STREAM, "quarter-close", { ...report(STREAM), at: inThreeDays })
  await put(STREAM, "welcome-report", { ...report(STREAM), after: "1 second" })
  // The webhook's first occurrence is a minute away: deliver it now, so it fails now.
  await call("POST", `/streams/${STREAM}/schedules/usage-webhook/trigger`)

  await put(FAILING_STREAM, "usage-report", { ...report(FAILING_STREAM), every: "5 minutes" })
  await put(FAILING_STREAM, "usage-webhook", { ...webhook(FAILING_STREAM), after: "1 second", maxAttempts: 2 })
  await put("initech", "daily-digest", { ...report("initech"), cron: "30 7 * * 1-5", timezone: "America/New_York" })
  for (let i = 0; i < BULK_SIZE; i++) {
    await put(BULK_STREAM, `report-${String(i).padStart(3, "0")}`, { ...report(BULK_STREAM), every: "1 hour" })
  }

  const get = (stream: string, id: string) =>
    call<{ schedule: ScheduleView }>("GET", `/streams/${stream}/schedules/${id}`).then((r) => r.schedule)
  await until("acme-corp/usage-webhook has a last error", async () => (await get(STREAM, "usage-webhook")).lastError)
  await until("acme-corp/welcome-report completed", async () => {
    return (await get(STREAM, "welcome-report")).state === "completed"
  })
  await until("globex/usage-webhook failed", async () => {
    return (await get(FAILING_STREAM, "usage-webhook")).state === "failed"
  })
}

async function until(what: string, check: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (await check()) return
    await sleep(250)
  }
  throw new Error(`${what}: not within ${SETTLE_TIMEOUT_MS / 1000} s`)
}
