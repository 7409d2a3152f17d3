import { database } from "../../infra/db/index.ts"
import { logLine } from "../../infra/log.ts"
import { Schedules } from "../../infra/schedules/schedules.ts"
import { recordReminder, trialById, usageTotalOf } from "./queries.ts"

export type TrialReminderPayload = { trialId: number; account: string }

/** Daily at 09:00 in the user's timezone while the trial is open (see routes.ts). */
export const trialReminder = Schedules.consumer<TrialReminderPayload>({
  name: "billing.trial-reminder",
  timeout: "10 seconds",
  deliver: async (delivery, { env }) => {
    const db = database(env.DB)
    const trial = await trialById(db, delivery.payload.trialId)
    if (!trial) return Schedules.terminal(`trial ${delivery.payload.trialId} does not exist`)
    if (trial.closedAt !== null) {
      // The trial is over: stop reminding. The cancellation stands over this delivery.
      await Schedules.stream(env.SCHEDULES, delivery.stream).cancel(delivery.scheduleId)
      return
    }
    // Delivery is at least once: the key makes a redelivered occurrence a no-op.
    await recordReminder(db, delivery.idempotencyKey, trial.account, trial.id, Date.now())
  },
})

export type UsageReportPayload = { account: string }

/** Every minute per metered account: reports the rolled-up usage (a log line stands in for the email). */
export const usageReport = Schedules.consumer<UsageReportPayload>({
  name: "billing.usage-report",
  timeout: "10 seconds",
  deliver: async (delivery, { env }) => {
    const total = await usageTotalOf(database(env.DB), delivery.payload.account)
    logLine("info", "billing.usage-report", {
      account: delivery.payload.account,
      quantity: total?.quantity ?? 0,
      throughSlot: total ? new Date(total.throughSlot).toISOString() : null,
      idempotencyKey: delivery.idempotencyKey,
    })
  },
})
