import { env } from "cloudflare:workers"
import { describe, expect, inject, it } from "vitest"
import type { AlertNotice } from "../../src/infra/alerts/index.ts"
import { logger } from "../../src/infra/log.ts"
import { alerts, alertWebhook } from "../../src/slices/ops/index.ts"
import { captureLogs } from "../support/logs.ts"
import type { Seen } from "../support/webhook-receivers.ts"

const logs = captureLogs()

const notice: AlertNotice = {
  rule: "job-failed.billing.roll-up-usage",
  kind: "job-failed",
  subject: "billing.roll-up-usage",
  about: "job billing.roll-up-usage",
  status: "firing",
  summary: "billing.roll-up-usage failed its newest 5 runs",
  cause: "billing.roll-up-usage failed its newest 5 runs",
  check: "Open the job's runs: read the newest error and fix its cause.",
  link: null,
  openedAt: Date.UTC(2026, 11, 3, 12, 0),
  resolvedAt: null,
}

/** One attempt of the app's alert consumer, with OPS_ALERT_WEBHOOK_URL set to `url` (or unset). */
function deliver(url: string | undefined, attempt = 1) {
  const delivery = {
    stream: "slotwise-alerts",
    scheduleId: "job-failed-0a1b2c3d-mj8k-firing",
    occurrence: 1,
    dueAt: new Date(notice.openedAt),
    attempt,
    lateByMs: 0,
    idempotencyKey: "schedule:slotwise-alerts/job-failed-0a1b2c3d-mj8k-firing@0123456789ab:1",
    payload: notice,
  }
  const once = () => Promise.reject(new Error("this consumer writes nothing to D1"))
  const ctx = {
    env: { ...env, OPS_ALERT_WEBHOOK_URL: url },
    signal: new AbortController().signal,
    log: logger({}),
    once,
  }
  return alertWebhook.deliver(delivery, ctx)
}

const seenAt = async (origin: string, path: string) =>
  ((await (await fetch(`${origin}/seen`)).json()) as Seen[]).filter((seen) => seen.path === path)

describe("the example app's alert webhook (src/slices/ops), through workerd's own fetch and a real receiver", () => {
  it("POSTs the notice as JSON with the delivery's idempotency key, as body field and header", async () => {
    const { target } = inject("webhookReceivers")
    const path = `/alerts/${crypto.randomUUID()}`
    expect(await deliver(`${target}${path}`)).toBeUndefined()
    const [seen, ...more] = await seenAt(target, path)
    expect(more).toEqual([])
    expect(seen?.method).toBe("POST")
    expect(seen?.idempotencyKey).toBe("schedule:slotwise-alerts/job-failed-0a1b2c3d-mj8k-firing@0123456789ab:1")
    expect(JSON.parse(seen?.body ?? "{}")).toEqual({ ...notice, idempotencyKey: seen?.idempotencyKey })
  })

  it("retries a 503 and stops on a 401, never quoting the url (a webhook's path is its secret)", async () => {
    const { target } = inject("webhookReceivers")
    const secret = crypto.randomUUID()
    const retried = await deliver(`${target}/status/503/${secret}`)
    expect(retried).toMatchObject({ status: "retry", reason: "the alert webhook answered 503" })
    const stopped = await deliver(`${target}/status/401/${secret}`)
    expect(stopped).toMatchObject({ status: "terminal", reason: "the alert webhook answered 401" })
    expect(JSON.stringify([retried, stopped])).not.toContain(secret)
  })

  it("writes the notice as a log line when no webhook is configured", async () => {
    expect(await deliver(undefined)).toBeUndefined()
    expect(logs.of("ops.alert")).toEqual([expect.objectContaining({ rule: notice.rule, status: "firing" })])
  })

  it("is the consumer of the Worker's alerts job", () => {
    expect(alerts.name).toBe("slotwise.alerts")
    expect(alerts.exclusive).toBe(true)
  })
})
