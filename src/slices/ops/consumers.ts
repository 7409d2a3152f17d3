import { type AlertNotice, Retry, Schedules } from "slotwise/portable"

/**
 * Delivers each alert notice (an incident firing, then resolved) to the webhook OPS_ALERT_WEBHOOK_URL names, as
 * JSON with the delivery's idempotency key (also its Idempotency-Key header, so a retried notice is deduped);
 * without one, writes it as a log line. The alert stream retries a failed POST; a 4xx no retry cures stops it.
 */
export const alertWebhook = Schedules.consumer<AlertNotice>({
  name: "ops.alert-webhook",
  timeout: "10 seconds",
  deliver: async (delivery, { env, log, signal }) => {
    const notice = { ...delivery.payload, idempotencyKey: delivery.idempotencyKey }
    const url = env.OPS_ALERT_WEBHOOK_URL
    if (!url) {
      log.warn("ops.alert", notice)
      return
    }
    // The url is a secret (a Slack webhook's path is its key): no reason below quotes it.
    let res: Response
    try {
      res = await fetch(url, {
        method: "POST",
        signal,
        redirect: "manual",
        headers: { "content-type": "application/json", "idempotency-key": delivery.idempotencyKey },
        body: JSON.stringify(notice),
      })
    } catch (error) {
      return Schedules.retry(`the alert webhook could not be reached: ${(error as Error).name}`)
    }
    await res.body?.cancel()
    if (res.ok) return
    if (res.status < 400 || Retry.isRetryableStatus(res.status))
      return Schedules.retry(`the alert webhook answered ${res.status}`)
    return Schedules.terminal(`the alert webhook answered ${res.status}`)
  },
})
