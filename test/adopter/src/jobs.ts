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

// The Workers plan, declared once: it rides on these jobs into every list built from them (docs/limits.md).
export const jobs = Jobs.registry([minutelyReport], { plan: "paid" })
