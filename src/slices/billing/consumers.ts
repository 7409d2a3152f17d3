import { Retry, Schedules } from "slotwise/portable"
import { database } from "./db.ts"
import { recordReminder, trialById, usageTotalOf } from "./queries.ts"
import { webhookUrlProblem } from "./webhook-url.ts"

export type TrialReminderPayload = { trialId: number; account: string }

/** Daily at 09:00 in the user's timezone while the trial is open (see routes.ts). */
export const trialReminder = Schedules.consumer<TrialReminderPayload>({
  name: "billing.trial-reminder",
  timeout: "10 seconds",
  deliver: async (delivery, { env, once }) => {
    const db = database(env.DB)
    const trial = await trialById(db, delivery.payload.trialId)
    if (!trial) return Schedules.terminal(`trial ${delivery.payload.trialId} does not exist`)
    if (trial.closedAt !== null) {
      // The trial is over: stop reminding. The cancellation stands over this delivery.
      await Schedules.stream(env.SCHEDULES, delivery.stream).cancel(delivery.scheduleId)
      return
    }
    // Delivery is at least once: once commits the reminder with the key, so a redelivery records nothing.
    await once([recordReminder(db, delivery.idempotencyKey, trial.account, trial.id, Date.now())])
  },
})

export type UsageReportPayload = { account: string }

/** Every minute per metered account: reports the rolled-up usage (a log line stands in for the email). */
export const usageReport = Schedules.consumer<UsageReportPayload>({
  name: "billing.usage-report",
  timeout: "10 seconds",
  deliver: async (delivery, { env, log }) => {
    const total = await usageTotalOf(database(env.DB), delivery.payload.account)
    log.info("billing.usage-report", {
      account: delivery.payload.account,
      quantity: total?.quantity ?? 0,
      throughSlot: total ? new Date(total.throughSlot).toISOString() : null,
      idempotencyKey: delivery.idempotencyKey,
    })
  },
})

/**
 * How a reason quotes a webhook url: as its href, whole (no raw spelling, no spaces), so that the
 * stream finds it and hides its user, password and query values (README, "Secrets in URLs").
 */
const quoted = (url: unknown) =>
  typeof url === "string" && URL.canParse(url) ? new URL(url).href : JSON.stringify(url)

/** Why a 3xx answer is a failed attempt: its status and where it pointed, resolved against `href`. */
function redirectRefused(href: string, res: Response): string {
  const location = res.headers.get("location")
  if (location === null) return `POST ${href} answered ${res.status} without a Location, and redirects are not followed`
  const target = URL.canParse(location, href) ? new URL(location, href).href : "a Location that is not a URL"
  return `POST ${href} answered ${res.status}, a redirect to ${target}, which is not followed`
}

export type UsageWebhookPayload = { account: string; url: string }

/** Every minute per subscribed account: POSTs the rolled-up usage to the account's webhook. */
export const usageWebhook = Schedules.consumer<UsageWebhookPayload>({
  name: "billing.usage-webhook",
  timeout: "10 seconds",
  deliver: async (delivery, { env, signal }) => {
    const { account, url } = delivery.payload
    // Checked again here: admin can upsert any payload, and a deployed Worker never POSTs over plain http.
    const refused = webhookUrlProblem(url, env)
    if (refused) return Schedules.terminal(`url ${quoted(url)} ${refused}`)
    const href = new URL(url).href
    const total = await usageTotalOf(database(env.DB), account)
    let res: Response
    try {
      // The plain fetch, not Retry.createRetryingFetch: the stream is this POST's durable retrier, and work under one retries in process on contention only (README, Retry policies).
      res = await fetch(url, {
        method: "POST",
        signal,
        // Never followed: a redirect would carry the body and key to wherever Location names, past the url rule.
        redirect: "manual",
        // The receiver dedupes on the key: a retried occurrence carries the same one.
        headers: { "content-type": "application/json", "idempotency-key": delivery.idempotencyKey },
        body: JSON.stringify({ account, quantity: total?.quantity ?? 0, throughSlot: total?.throughSlot ?? null }),
      })
    } catch (error) {
      return Schedules.retry(`POST ${href} failed: ${String((error as Error).message).replaceAll(url, href)}`)
    }
    await res.body?.cancel()
    if (res.ok) return
    if (res.status >= 300 && res.status < 400) return Schedules.retry(redirectRefused(href, res))
    // A status no later attempt cures stops the schedule until it is fixed and resumed.
    if (!Retry.isRetryableStatus(res.status)) return Schedules.terminal(`POST ${href} answered ${res.status}`)
    return Schedules.retry(`POST ${href} answered ${res.status}`)
  },
})
