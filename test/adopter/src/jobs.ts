import { Jobs } from "slotwise"

/** Writes one report row per slot: an exclusive job, so two heartbeats of one slot write one row. */
export const minutelyReport = Jobs.make({
  name: "reports.minutely",
  cron: "* * * * *",
  exclusive: true,
  timeout: "30 seconds",
  run: async (slot, ctx) => {
    await ctx.env.DB.prepare("INSERT INTO reports (slot, run_id) VALUES (?, ?)").bind(slot.getTime(), ctx.runId).run()
  },
})

export const jobs = Jobs.registry([minutelyReport])
