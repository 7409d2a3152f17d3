// What Node sees: `slotwise` is the portable API (no Durable Object class), `slotwise/node` the container.
import { Jobs, Schedules } from "slotwise"
import { Container, type ContainerOptions } from "slotwise/node"
import { Retry } from "slotwise/portable"

const tick = Jobs.make({
  name: "node.tick",
  cron: "* * * * *",
  exclusive: true,
  timeout: "30 seconds",
  run: async () => {},
})

const options: ContainerOptions = { app: { fetch: () => new Response("ok") }, jobs: Jobs.registry([tick]) }

export const start = () => Container.start(options)

export const parts = { Schedules, Retry }
