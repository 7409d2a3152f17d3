import type { ScheduleView, StreamClient } from "slotwise/portable"
import type { Database } from "./db.ts"
import { replaceWebhook, webhookOf } from "./queries.ts"

/** Every usage-webhook schedule id starts so; each subscription adds its own uuid. */
export const WEBHOOK_ID_PREFIX = "usage-webhook-"

/**
 * The account's current webhook schedule, or undefined when it has none (never subscribed, or
 * its schedule was removed, by `remove` or the retention window).
 * @example const hook = await currentWebhook(db, stream, "acme") // hook?.state === "scheduled"
 */
export async function currentWebhook(db: Database, stream: StreamClient, account: string) {
  const current = await webhookOf(db, account)
  return current ? await stream.get(current.scheduleId) : undefined
}

/**
 * The schedule id a subscribe of `account` upserts: its live webhook's (a new url replaces the
 * old one, and the occurrence count goes on), else a fresh `usage-webhook-<uuid>` recorded as
 * the account's current one. A subscription never reuses an id whose row may be gone, so its
 * idempotency keys start at `:1` of an id no receiver has seen (README, "Reusing an id").
 * @example await stream.upsert({ id: await subscriptionId(db, stream, "acme"), consumer, every, payload })
 */
export async function subscriptionId(db: Database, stream: StreamClient, account: string): Promise<string> {
  const current = await webhookOf(db, account)
  // Only a scheduled row is safe to reuse: retention deletes finished ones, and a deleted id restarts at 1.
  const live: ScheduleView | undefined = current ? await stream.get(current.scheduleId) : undefined
  if (current && live?.state === "scheduled") return current.scheduleId
  const fresh = `${WEBHOOK_ID_PREFIX}${crypto.randomUUID()}`
  if (await replaceWebhook(db, account, fresh, current?.scheduleId ?? null)) return fresh
  // A concurrent subscribe recorded its own first: join it, so the account keeps one webhook.
  const winner = await webhookOf(db, account)
  if (!winner) throw new Error(`the webhook of account ${account} was recorded and is gone`)
  return winner.scheduleId
}
