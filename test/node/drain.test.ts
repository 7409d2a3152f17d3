import { describe, expect, it } from "vitest"
import type { SlotwiseEnv } from "../../src/infra/env.ts"
import { Container } from "../../src/infra/node/index.ts"
import { openLibsql } from "../../src/infra/node/libsql/libsql-client.ts"
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

    const after = await openLibsql(url)
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

describe("a container's stop (SIGTERM)", () => {
  it("waits for work a request in flight hands to waitUntil after the drain found nothing to wait for", async () => {
    const { url } = await migratedDatabase()
    let answerRequest!: () => void
    const requestMayAnswer = new Promise<void>((done) => {
      answerRequest = done
    })
    let received!: () => void
    const requestReceived = new Promise<void>((done) => {
      received = done
    })
    let letWorkWrite!: () => void
    const workMayWrite = new Promise<void>((done) => {
      letWorkWrite = done
    })
    // A request (an admin run-now, say) that, once let go, hands a write to waitUntil and answers.
    const app = {
      fetch: async (_request: Request, env: SlotwiseEnv, ctx: ExecutionContext) => {
        received()
        await requestMayAnswer
        ctx.waitUntil(
          workMayWrite.then(() =>
            env.DB.prepare("INSERT INTO jobs_leases (name, last_slot) VALUES ('drain.handed-over', 1)").run(),
          ),
        )
        return new Response("ok")
      },
    }
    const container = await Container.start({ app, jobs: [], databaseUrl: url, port: 0, handleSignals: false })
    // connection: close, so no keep-alive holds the server open past the answer.
    const answered = fetch(container.url, { headers: { connection: "close" } })
    await requestReceived
    // The drain starts with nothing in flight; the request is still being answered.
    const stopped = container.stop()
    answerRequest()
    expect(await (await answered).text()).toBe("ok")
    // Time for a stop that does not wait to end and close the client; one that waits, waits for the write.
    await Promise.race([stopped, new Promise((done) => setTimeout(done, 100))])
    letWorkWrite()
    await stopped
    const after = await openLibsql(url)
    try {
      const row = await after.execute("SELECT last_slot FROM jobs_leases WHERE name = 'drain.handed-over'")
      expect(row.rows).toHaveLength(1)
    } finally {
      after.close()
    }
  })
})
