import { describe, expect, it } from "vitest"
import { openDatabase } from "../../src/infra/node/database.ts"
import { createRuntime } from "../../src/infra/node/runtime.ts"
import { Jobs } from "../../src/infra/portable.ts"
import { lateD1 } from "../support/fault.ts"
import { migratedDatabase } from "./engines.ts"

const SLOT = new Date(Date.UTC(2026, 10, 30, 3, 0))

const job = Jobs.make({
  name: "drain.late-claim",
  cron: "* * * * *",
  exclusive: true,
  timeout: "10 seconds",
  run: async () => {},
})

describe("a container replica's drain (SIGTERM)", () => {
  it("waits for a late claim's release handed to waitUntil after the drain began, before the client closes", async () => {
    const { client, url } = await migratedDatabase()
    const runtime = createRuntime({ jobs: [job], client })
    let answer!: () => void
    const claimAnswered = new Promise<void>((done) => {
      answer = done
    })
    // The claim commits at once but answers only when let go: past the run's 20 ms deadline.
    const { db } = lateD1(runtime.env.DB, (query) =>
      query.startsWith("insert into jobs_leases") ? claimAnswered : undefined,
    )
    const { waitUntil } = runtime.executionContext
    const running = Jobs.run(job, SLOT, { env: { ...runtime.env, DB: db }, waitUntil, d1DeadlineMs: 20 })
    waitUntil(running)

    const draining = runtime.drain(30_000)
    // The run gave the claim up and handed its release to waitUntil, the drain already under way.
    expect(await running).toMatchObject({ status: "skipped", reason: "claim timed out" })
    answer()
    expect(await draining).toBe(0)
    client.close()

    const after = await openDatabase(url)
    try {
      const lease = await after.execute({
        sql: "SELECT holder, lease_until FROM jobs_leases WHERE name = ?",
        args: [job.name],
      })
      expect(lease.rows[0]).toMatchObject({ holder: null, lease_until: null })
    } finally {
      after.close()
    }
  })
})
