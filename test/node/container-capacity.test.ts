import { describe, expect, it } from "vitest"
import { createRuntime } from "../../src/infra/node/runtime.ts"
import { type Job, Jobs } from "../../src/infra/portable.ts"
import { migratedDatabase } from "./engines.ts"

describe("a container heartbeat", () => {
  it("knows no Workers plan: it runs every due job, past Workers Free's 100, and leaves the jobs every query", async () => {
    const { client } = await migratedDatabase()
    // Declared as on a Worker (Workers Free, by default): the container's invocations are not Cloudflare's.
    const jobs: readonly Job[] = Jobs.registry(
      Array.from({ length: 150 }, (_, i) =>
        Jobs.make({
          name: `container.capacity-${i}`,
          cron: "* * * * *",
          exclusive: true,
          timeout: "10 seconds",
          run: async (_slot, ctx) => {
            await (ctx.env as { DB: D1Database }).DB.prepare("select 1").all()
          },
        }),
      ),
    )
    const runtime = createRuntime({ jobs, client })
    const results = await runtime.beat(Date.now())
    expect(results.map((result) => result.status)).toEqual(jobs.map(() => "ran"))
    client.close()
  })
})
