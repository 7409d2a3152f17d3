import { env } from "cloudflare:workers"
import { describe, expect, inject, it } from "vitest"
import { usageWebhook } from "../../src/slices/billing/index.ts"
import { adminFetch } from "../support/admin.ts"
import {
  account,
  deliverDue,
  fakeReceiver,
  keyOf,
  subscribe,
  subscribeDeployed,
  subscribed,
  viewOf,
} from "../support/webhook.ts"
import type { Seen } from "../support/webhook-receivers.ts"

const receiver = fakeReceiver()

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

describe("the webhook url rule: no address in a refused block", () => {
  const PRIVATE_HOSTS: [string, string][] = [
    ["https://127.0.0.1/usage", "127.0.0.0/8"],
    ["https://127.1.2.3/usage", "127.0.0.0/8"],
    ["https://127.255.255.255/usage", "127.0.0.0/8"],
    ["https://0x7f.1/usage", "127.0.0.0/8"],
    ["https://2130706433/usage", "127.0.0.0/8"],
    ["https://localhost/usage", "127.0.0.0/8"],
    ["https://[::1]/usage", "::1/128"],
    ["https://[::ffff:127.0.0.1]/usage", "127.0.0.0/8"],
    ["https://[::ffff:7f00:1]/usage", "127.0.0.0/8"],
    ["https://0.0.0.0/usage", "0.0.0.0/8"],
    ["https://[::]/usage", "::/128"],
    ["https://169.254.169.254/latest/meta-data", "169.254.0.0/16"],
    ["https://[fe80::1]/usage", "fe80::/10"],
    ["https://10.1.2.3/usage", "10.0.0.0/8"],
    ["https://172.16.0.1/usage", "172.16.0.0/12"],
    ["https://192.168.1.1/usage", "192.168.0.0/16"],
    ["https://[::ffff:192.168.1.1]/usage", "192.168.0.0/16"],
    ["https://[64:ff9b::10.0.0.1]/usage", "10.0.0.0/8"],
    ["https://100.64.0.1/usage", "100.64.0.0/10"],
    ["https://[fd12:3456::1]/usage", "fc00::/7"],
    // Issue 30's: the metadata address through the local-use NAT64 prefix, the IPv4-translated form, and blocks that passed.
    ["https://[64:ff9b:1::a9fe:a9fe]/", "64:ff9b:1::/48"],
    ["https://[64:ff9b:1::a00:1]/", "64:ff9b:1::/48"],
    ["https://[::ffff:0:169.254.169.254]/", "169.254.0.0/16"],
    ["https://255.255.255.255/", "255.255.255.255/32"],
    ["https://224.0.0.1/", "224.0.0.0/4"],
    ["https://239.255.255.250/", "224.0.0.0/4"],
    ["https://240.0.0.1/", "240.0.0.0/4"],
    ["https://198.18.0.1/", "198.18.0.0/15"],
    ["https://[2002:c0a8:101::1]/", "192.168.0.0/16"],
  ]

  it.each(PRIVATE_HOSTS)("refuses %s (in %s) on a deployed Worker with 400 naming url", async (url, block) => {
    const name = account()
    const res = await subscribeDeployed(name, url)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      field: "url",
      detail: expect.stringMatching(
        new RegExp(
          `^url: must not name ${escaped(new URL(url).hostname)}(, which reaches \\S+ \\([^)]*\\))?, in ${escaped(block)} \\(`,
        ),
      ),
    })
    expect(await env.DB.prepare("SELECT name FROM schedule_streams WHERE name = ?").bind(name).first()).toBeNull()
  })

  it("running locally, accepts 127.0.0.1 over http and https and refuses every other private address", async () => {
    for (const url of ["http://127.0.0.1:9/usage", "https://127.0.0.1:9/usage"]) {
      expect((await subscribe(account(), { url })).status, url).toBe(200)
    }
    for (const [url, block] of PRIVATE_HOSTS.filter(([url]) => new URL(url).hostname !== "127.0.0.1")) {
      const res = await subscribe(account(), { url })
      expect(res.status, url).toBe(400)
      expect(await res.json()).toMatchObject({ field: "url", detail: expect.stringContaining(`, in ${block} (`) })
    }
  })

  it.each([
    "https://8.8.8.8/usage",
    "https://172.15.255.255/usage",
    "https://172.32.0.1/usage",
    "https://9.255.255.255/usage",
    "https://11.0.0.1/usage",
    "https://126.255.255.255/usage",
    "https://128.0.0.1/usage",
    "https://169.253.255.255/usage",
    "https://169.255.0.1/usage",
    "https://192.167.255.255/usage",
    "https://[fbff:ffff::1]/usage",
    "https://[fe00::1]/usage",
    "https://192.169.0.1/usage",
    "https://[2606:4700:4700::1111]/usage",
    "https://[::ffff:8.8.8.8]/usage",
    "https://10.example.com/usage",
  ])("accepts the public %s on a deployed Worker", async (url) => {
    expect((await subscribeDeployed(account(), url)).status).toBe(200)
  })

  it("stops a schedule stored with a private address before the rule (terminal failed), posting nothing", async () => {
    const name = account()
    const url = "https://169.254.169.254/latest/meta-data"
    const put = await adminFetch(`/admin/streams/${name}/schedules/usage-webhook`, {
      method: "PUT",
      body: JSON.stringify({ consumer: usageWebhook.name, every: "1 minute", payload: { account: name, url } }),
    })
    expect(put.status).toBe(200)
    expect(await deliverDue(name)).toMatchObject({ claimed: 1, delivered: 0, retried: 0, failed: 1 })
    expect(await viewOf(name)).toMatchObject({
      state: "failed",
      lastError: `url ${url} must not name 169.254.169.254, in 169.254.0.0/16 (link-local, RFC 3927); only a public host (127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)`,
    })
    expect(receiver.received).toEqual([])
  })
})

describe("the billing.usage-webhook consumer through workerd's own fetch", () => {
  const seenBy = async (origin: string, path: string) =>
    ((await (await fetch(`${origin}/seen`)).json()) as Seen[]).filter((request) => request.path === path)

  it.each([307, 308])(
    "does not follow a %i: the attempt is a retry naming the redirect and its target, and the target sees nothing",
    async (status) => {
      // The real fetch, so following (or not) is workerd's own redirect handling.
      receiver.restore()
      const { redirector, target } = inject("webhookReceivers")
      const path = `${status === 308 ? "/308" : ""}/usage/${crypto.randomUUID()}`
      const { name } = await subscribed(`${redirector}${path}`)

      expect(await deliverDue(name)).toMatchObject({ claimed: 1, delivered: 0, retried: 1, failed: 0 })
      expect(await viewOf(name)).toMatchObject({
        state: "scheduled",
        occurrence: 1,
        attempts: 1,
        lastError: `POST ${redirector}${path} answered ${status}, a redirect to ${target}${path}, which is not followed`,
      })
      expect((await seenBy(redirector, path)).map((r) => [r.method, r.idempotencyKey])).toEqual([
        ["POST", await keyOf(name, 1)],
      ])
      expect(await seenBy(target, path)).toEqual([])
    },
  )
})
