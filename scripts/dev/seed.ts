import { say, warn } from "./log.ts"

const SEED_TIMEOUT_MS = 10_000
const DEMO = "demo"
/** Nothing listens on port 9 (discard): the demo webhook fails and retries, as a broken endpoint would. */
const UNREACHABLE_WEBHOOK = "http://127.0.0.1:9/usage"

interface SeedRequest {
  what: string
  method: "POST" | "PUT"
  path: string
  body: unknown
}

/**
 * Demo data through the Worker's own routes, all in stream "demo": usage (which upserts its
 * every-minute usage-report), a trial (its daily reminder at 09:00 in Europe/Paris), a usage
 * webhook pointing at nothing, and through the admin API a one-shot ping of that webhook due in
 * 5 seconds, so a failing, retrying schedule shows within the first minute. Each call is an
 * upsert (the trial only when none exists): a restart changes nothing.
 */
export async function seedDemo(origin: string, adminToken: string): Promise<void> {
  const dueAt = new Date(Date.now() + 14 * 86_400_000).toISOString()
  const trial: SeedRequest = {
    what: "a trial",
    method: "POST",
    path: "/billing/trials",
    body: { account: DEMO, dueAt, timezone: "Europe/Paris" },
  }
  const requests: SeedRequest[] = [
    { what: "usage", method: "POST", path: "/billing/usage", body: { account: DEMO, quantity: 3 } },
    // A trial is not an upsert: start one only while the demo stream has no reminder.
    ...((await hasTrialReminder(origin, adminToken)) ? [] : [trial]),
    {
      what: "a failing webhook",
      method: "PUT",
      path: `/billing/usage/${DEMO}/webhook`,
      body: { url: UNREACHABLE_WEBHOOK },
    },
    {
      what: "a webhook ping",
      method: "PUT",
      path: `/admin/streams/${DEMO}/schedules/webhook-ping`,
      body: {
        consumer: "billing.usage-webhook",
        after: "5 seconds",
        payload: { account: DEMO, url: UNREACHABLE_WEBHOOK },
      },
    },
  ]
  for (const request of requests) {
    try {
      const res = await fetch(`${origin}${request.path}`, {
        method: request.method,
        // The billing routes sit behind the admin door too.
        headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(SEED_TIMEOUT_MS),
      })
      if (!res.ok) throw new Error(`${request.method} ${request.path} answered ${res.status}: ${await res.text()}`)
    } catch (error) {
      warn(`could not seed ${request.what}: ${(error as Error).message}`)
      return
    }
  }
  say(`seeded stream "${DEMO}": usage-report and usage-webhook every minute, a trial reminder, a webhook-ping in 5 s`)
  say("the webhooks point at a closed port: watch them fail and retry in the dashboard")
}

async function hasTrialReminder(origin: string, adminToken: string): Promise<boolean> {
  const res = await fetch(`${origin}/admin/streams/${DEMO}/schedules?limit=500`, {
    headers: { authorization: `Bearer ${adminToken}` },
    signal: AbortSignal.timeout(SEED_TIMEOUT_MS),
  }).catch(() => undefined)
  if (!res?.ok) return false
  const { schedules } = (await res.json()) as { schedules: Array<{ consumer: string }> }
  return schedules.some((schedule) => schedule.consumer === "billing.trial-reminder")
}
