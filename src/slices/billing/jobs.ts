import { Jobs } from "slotwise/portable"
import { database } from "./db.ts"
import { closeTrialsDueAt, rollUpUsageThrough } from "./queries.ts"

export const closeExpiredTrials = Jobs.make({
  name: "billing.close-expired-trials",
  cron: "0 3 * * *",
  exclusive: true,
  timeout: "5 minutes",
  run: async (slot, ctx) => {
    const closed = await closeTrialsDueAt(database(ctx.env.DB), slot.getTime())
    ctx.log.info("trials closed", { closed })
  },
})

export const rollUpUsage = Jobs.make({
  name: "billing.roll-up-usage",
  cron: "* * * * *",
  exclusive: true,
  timeout: "30 seconds",
  run: async (slot, ctx) => {
    const events = await rollUpUsageThrough(database(ctx.env.DB), slot.getTime())
    ctx.log.info("usage rolled up", { events })
  },
})
