import { describe, expect, inject, it } from "vitest"
import { usageWebhook } from "../../src/slices/billing/index.ts"
import { WEBHOOK_URL_CREDENTIALS } from "../../src/slices/billing/webhook-url.ts"
import { adminFetch, json } from "../support/admin.ts"
import { captureLogs } from "../support/logs.ts"
import {
  account,
  deliverDue,
  idOf,
  streamOf,
  subscribe,
  subscribeDeployed,
  subscribed,
  viewOf,
} from "../support/webhook.ts"
import type { Seen } from "../support/webhook-receivers.ts"

// No fake receiver here: every POST goes through workerd's own fetch to the local receivers.
const logs = captureLogs()

/** Marks every secret below, so a test can say it appears nowhere. */
const SECRET = "hunter2-9c41"

/**
 * Everything written about the account's deliveries, as admin and the dashboard read it: the
 * schedule's last error and events (admin's schedule route), and every line logged. Not the
 * payload: that is the subscription as it was given.
 */
async function writtenAbout(name: string): Promise<string> {
  const res = await adminFetch(`/admin/streams/${name}/schedules/${idOf(name)}`)
  expect(res.status).toBe(200)
  const { schedule, events } = (await json(res)) as { schedule: { lastError: unknown }; events: unknown[] }
  return JSON.stringify([schedule.lastError, events, logs.lines])
}

const seenBy = async (origin: string, path: string) =>
  ((await (await fetch(`${origin}/seen`)).json()) as Seen[]).filter((request) => request.path.startsWith(path))

describe("a webhook url's credentials", () => {
  it.each([
    `https://user:${SECRET}@hooks.example.com/usage`,
    `https://${SECRET}@hooks.example.com/usage`,
    `https://:${SECRET}@hooks.example.com/usage`,
  ])("are refused at subscribe with 400 naming url, deployed or running locally: %s", async (url) => {
    const local = new URL(url)
    local.protocol = "http:"
    local.host = "127.0.0.1:9"
    for (const [res, name] of [
      [await subscribeDeployed(account(), url), "deployed"],
      [await subscribe(account(), { url: local.href }), "local"],
    ] as const) {
      expect(res.status, name).toBe(400)
      const body = await json(res)
      expect(body, name).toMatchObject({ field: "url", detail: `url: ${WEBHOOK_URL_CREDENTIALS}` })
      expect(JSON.stringify(body)).not.toContain(SECRET)
    }
  })

  it("stored through admin anyway, stop the schedule at delivery (terminal), posting nothing, and reach no reason or log", async () => {
    const { target } = inject("webhookReceivers")
    const name = account()
    const path = `/usage/${crypto.randomUUID()}`
    const url = `${target.replace("//", `//user:${SECRET}@`)}${path}`
    const put = await adminFetch(`/admin/streams/${name}/schedules/usage-webhook`, {
      method: "PUT",
      body: JSON.stringify({ consumer: usageWebhook.name, every: "1 minute", payload: { account: name, url } }),
    })
    expect(put.status).toBe(200)

    expect(await deliverDue(name)).toMatchObject({ claimed: 1, failed: 1 })
    const shown = `${target.replace("//", "//***@")}${path}`
    expect(await viewOf(name)).toMatchObject({ state: "failed", lastError: `url ${shown} ${WEBHOOK_URL_CREDENTIALS}` })
    expect(logs.of("schedule.delivery").map((line) => line.reason)).toEqual([`url ${shown} ${WEBHOOK_URL_CREDENTIALS}`])
    expect(await writtenAbout(name)).not.toContain(SECRET)
    expect(await seenBy(target, path)).toEqual([])
  })
})

describe("a webhook url's query token, through workerd's own fetch and real receivers", () => {
  const { redirector, target } = inject("webhookReceivers")
  const token = `?account=acme&token=${SECRET}`
  const id = () => crypto.randomUUID()

  it.each<[string, () => { url: string; lastError: (url: string) => string }, "retry" | "terminal"]>([
    [
      "a 503 (retried)",
      () => ({ url: `${target}/status/503/${id()}${token}`, lastError: (url) => `POST ${url} answered 503` }),
      "retry",
    ],
    [
      "a 401 (terminal)",
      () => ({ url: `${target}/status/401/${id()}${token}`, lastError: (url) => `POST ${url} answered 401` }),
      "terminal",
    ],
    [
      "a 307 whose Location carries the token too",
      () => {
        const path = `/usage/${id()}`
        const redirect = `${target}${path}?account=***&token=***`
        return {
          url: `${redirector}${path}${token}`,
          lastError: (url) => `POST ${url} answered 307, a redirect to ${redirect}, which is not followed`,
        }
      },
      "retry",
    ],
    [
      "a connection that fails",
      () => ({
        url: `http://127.0.0.1:1/${id()}${token}`,
        lastError: (url) => `POST ${url} failed: Network connection lost.`,
      }),
      "retry",
    ],
  ])(
    "reaches no reason, event or log line on %s: its values are hidden, the rest of the url is kept",
    async (_what, make, outcome) => {
      const { url, lastError } = make()
      const { name } = await subscribed(url)
      expect(await deliverDue(name)).toMatchObject({ claimed: 1, [outcome === "retry" ? "retried" : "failed"]: 1 })

      const expected = lastError(url.replace(token, "?account=***&token=***"))
      expect((await viewOf(name)).lastError).toBe(expected)
      const events = await streamOf(name).events(name, { scheduleId: idOf(name), limit: 5 })
      if (!events.ok) throw new Error("no events")
      expect(events.value[0]).toMatchObject({ type: "schedule/failed", data: { reason: expected } })
      expect(logs.of("schedule.delivery").map((line) => line.reason)).toEqual([expected])
      expect(await writtenAbout(name)).not.toContain(SECRET)
    },
  )

  it("is still sent to the receiver, which is where it belongs", async () => {
    const path = `/usage/${id()}`
    const { name } = await subscribed(`${target}${path}${token}`)
    expect(await deliverDue(name)).toMatchObject({ delivered: 1 })
    expect((await seenBy(target, path)).map((request) => request.path)).toEqual([`${path}${token}`])
  })
})
