/**
 * One container replica as its own process, for test/node/postgres-replicas.test.ts: the runtime the
 * container builds, over SLOTWISE_DATABASE_URL, with a clock the parent sets. The parent sends
 * { id, slot, now }; the replica beats that slot and answers { id, results }. Its exclusive job records
 * each run in replica_runs; at HANG_SLOT it records the run and then never ends (to be SIGKILLed mid-run).
 */
import { Jobs } from "../../src/infra/jobs/index.ts"
import { openContainerDatabase } from "../../src/infra/node/container-database.ts"
import { createRuntime } from "../../src/infra/node/runtime.ts"
import { containerSettings } from "../../src/infra/node/settings.ts"

const replica = process.env.REPLICA ?? "replica"
const hangSlot = Number(process.env.HANG_SLOT ?? Number.NaN)
const database = await openContainerDatabase(containerSettings(process.env))
let clock = 0

const recorder = Jobs.make({
  name: "replicas.pg-record",
  cron: "* * * * *",
  exclusive: true,
  timeout: "10 seconds",
  run: async (slot, ctx) => {
    await ctx.env.DB.prepare("INSERT INTO replica_runs (slot, replica) VALUES (?, ?)")
      .bind(slot.getTime(), replica)
      .run()
    if (slot.getTime() === hangSlot) await new Promise(() => {})
  },
})
const runtime = createRuntime({ jobs: Jobs.registry([recorder]), d1: database.d1, now: () => clock })

process.on("message", async (message: { id: number; slot: number; now: number }) => {
  clock = message.now
  const results = await runtime.beat(message.slot)
  process.send?.({ id: message.id, results })
})
process.send?.({ ready: true })
