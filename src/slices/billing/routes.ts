import { HonoBase as Hono } from "hono/hono-base"
import { TrieRouter } from "hono/router/trie-router"
import { problem, validate } from "slotwise/admin"
import { isTimezone, Schedules } from "slotwise/portable"
import * as z from "zod/mini"
import {
  type TrialReminderPayload,
  trialReminder,
  type UsageReportPayload,
  type UsageWebhookPayload,
  usageReport,
  usageWebhook,
} from "./consumers.ts"
import { database } from "./db.ts"
import { recordUsage, startTrial, usageTotalOf } from "./queries.ts"
import { currentWebhook, subscriptionId } from "./webhook-subscription.ts"
import { MAX_WEBHOOK_URL_LENGTH, webhookUrlProblem } from "./webhook-url.ts"

// An account names its own schedule stream, so it follows the stream-name rule (README, Limits).
const account = z
  .string()
  .check(z.regex(/^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/, 'must match [A-Za-z0-9._~-]{1,128} and not be "." or ".."'))

export const billingRoutes = new Hono<{ Bindings: Env }>({ router: new TrieRouter() })
  .post(
    "/trials",
    validate(
      "json",
      z.object({
        account,
        dueAt: z.iso.datetime({ offset: true }),
        timezone: z._default(z.string().check(z.maxLength(64), z.refine(isTimezone, "is not an IANA timezone")), "UTC"),
      }),
    ),
    async (c) => {
      const { account, dueAt, timezone } = c.req.valid("json")
      const trial = await startTrial(database(c.env.DB), account, Date.parse(dueAt))
      const payload: TrialReminderPayload = { trialId: trial.id, account }
      // Daily at 09:00 in the user's own timezone, in the user's own stream, until the trial closes.
      const reminder = await Schedules.stream(c.env.SCHEDULES, account).upsert({
        id: `trial-${trial.id}`,
        consumer: trialReminder.name,
        cron: "0 9 * * *",
        timezone,
        payload,
      })
      return c.json({ trial, reminder }, 201)
    },
  )
  .post(
    "/usage",
    validate("json", z.object({ account, quantity: z.int().check(z.positive(), z.maximum(1_000_000)) })),
    async (c) => {
      const { account, quantity } = c.req.valid("json")
      const event = await recordUsage(database(c.env.DB), account, quantity, Date.now())
      const payload: UsageReportPayload = { account }
      // Idempotent: the first usage of an account creates its report, later ones change nothing.
      await Schedules.stream(c.env.SCHEDULES, account).upsert({
        id: "usage-report",
        consumer: usageReport.name,
        every: "1 minute",
        payload,
      })
      return c.json(event, 201)
    },
  )
  .put(
    "/usage/:account/webhook",
    validate("param", z.object({ account })),
    validate("json", z.object({ url: z.url({ protocol: /^https?$/ }).check(z.maxLength(MAX_WEBHOOK_URL_LENGTH)) })),
    async (c) => {
      const { account } = c.req.valid("param")
      const { url } = c.req.valid("json")
      const refused = webhookUrlProblem(url, c.env)
      if (refused) return problem(c, 400, "Invalid input", `url: ${refused}`, { field: "url" })
      const payload: UsageWebhookPayload = { account, url }
      const stream = Schedules.stream(c.env.SCHEDULES, account)
      // One webhook per account, every minute; a new url replaces the old one, a new subscription gets a new id.
      const schedule = await stream.upsert({
        id: await subscriptionId(database(c.env.DB), stream, account),
        consumer: usageWebhook.name,
        every: "1 minute",
        payload,
      })
      return c.json(schedule)
    },
  )
  .get("/usage/:account/webhook", validate("param", z.object({ account })), async (c) => {
    const { account } = c.req.valid("param")
    const hook = await currentWebhook(database(c.env.DB), Schedules.stream(c.env.SCHEDULES, account), account)
    if (!hook) return problem(c, 404, "Not found", `account ${account} has no webhook`)
    return c.json(hook)
  })
  .delete("/usage/:account/webhook", validate("param", z.object({ account })), async (c) => {
    const { account } = c.req.valid("param")
    const stream = Schedules.stream(c.env.SCHEDULES, account)
    const hook = await currentWebhook(database(c.env.DB), stream, account)
    if (!hook) return problem(c, 404, "Not found", `account ${account} has no webhook`)
    // Unsubscribing stops it; the row stays for the stream's retention window, and a later subscribe gets a new id.
    const stopped = hook.state === "scheduled" || hook.state === "failed" ? await stream.cancel(hook.id) : hook
    return c.json(stopped)
  })
  .get("/usage/:account", validate("param", z.object({ account })), async (c) => {
    const { account } = c.req.valid("param")
    const total = await usageTotalOf(database(c.env.DB), account)
    if (!total) return problem(c, 404, "Not found", `no usage rolled up for account ${account}`)
    return c.json(total)
  })
