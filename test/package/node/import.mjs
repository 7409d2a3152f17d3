// Plain Node imports `slotwise`: it must get the portable API, not crash on a `cloudflare:` import.
const slotwise = await import("slotwise")
const job = slotwise.Jobs.make({
  name: "node.import",
  cron: "*/5 * * * *",
  exclusive: false,
  timeout: 1000,
  run: async () => {},
})
console.log(JSON.stringify({ job: job.name, durableObject: typeof slotwise.Schedules.durableObject }))
