import { expect, it } from "vitest"
import { admin } from "../../src/infra/admin/index.ts"
import { database } from "../../src/infra/db/index.ts"
import type { SlotwiseEnv } from "../../src/infra/env.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { releaseSlot } from "../../src/infra/jobs/protocol/lease.ts"
import { describeError } from "../../src/infra/log.ts"
import { commitOnce } from "../../src/infra/once.ts"
import { captureLogs } from "./logs.ts"

const MINUTE = 60_000
const T0 = Date.UTC(2026, 5, 1, 9, 0)
let counter = 0

/** The engine migration a described error names as not applied, as its log line says it. */
const namedMigration = (text: unknown) => /slotwise migration (\S+) is not applied/.exec(String(text))?.[1]

/**
 * Today's statements on the schema before today's migrations (the previous release's: an upgrade deployed before
 * `wrangler d1 migrations apply`, the wrong order). Nothing is lost in silence: what needs a missing migration
 * fails, and its log line names that migration; what the previous schema holds still works. Registered once per
 * database (D1 in workerd, libSQL and PostgreSQL in Node); `since` lists the engine migrations since the previous
 * release (0007_jobs_database_clock, ...), which the database does not have.
 */
// One capture per test file, whichever databases it registers the scenarios for.
const logs = captureLogs()

export function previousSchemaScenarios(binding: () => D1Database, since: () => readonly string[]) {
  const env = () => ({ DB: binding() }) as unknown as SlotwiseEnv
  const fresh = () => `previous-schema.job-${Date.now()}-${++counter}`
  const sinceNames = () => since().map((file) => file.replace(/^.*\//, "").replace(/\.sql$/, ""))

  it("gives up today's claim on it with a job.run error line naming the missing migration, never running the job", async () => {
    let ran = 0
    const job = Jobs.make({
      name: fresh(),
      cron: "* * * * *",
      exclusive: true,
      timeout: "1 minute",
      run: () => {
        ran++
      },
    })
    const result = await Jobs.run(job, new Date(T0), { env: env(), now: () => T0 + 1_000 })
    expect(result).toMatchObject({ status: "skipped", reason: "claim failed" })
    expect(ran).toBe(0)
    const [line] = logs.of("job.run").filter((logged) => logged.job === job.name)
    expect(line).toMatchObject({ level: "error", job: job.name, outcome: "skipped", reason: "claim failed" })
    expect(sinceNames()).toContain(namedMigration(line?.error))
    expect(String(line?.error)).toMatch(/apply the migrations, then deploy; see docs\/upgrading\.md/)
  })

  it("fails today's release with its run record as a whole, the error naming the missing migration", async () => {
    const name = fresh()
    await binding()
      .prepare("INSERT INTO jobs_leases (name, last_slot, lease_until, holder) VALUES (?, ?, ?, ?)")
      .bind(name, T0, T0 + 2 * MINUTE, "run-1")
      .run()
    const ending = {
      record: { slot: T0, runId: "run-1", outcome: "ran" as const, ms: 5, finishedAt: T0 + 5, error: null },
      summary: null,
    }
    const failure = await releaseSlot(database(binding()), name, "run-1", ending).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeDefined()
    expect(sinceNames()).toContain(namedMigration(describeError(failure)))
    // Nothing was half-written: the batch rolled back, the lease is still held.
    const row = await binding().prepare("SELECT holder FROM jobs_leases WHERE name = ?").bind(name).first()
    expect(row).toEqual({ holder: "run-1" })
  })

  it("answers admin's job history as a 500 problem, its log line naming the missing migration", async () => {
    const job = Jobs.make({ name: fresh(), cron: "* * * * *", exclusive: true, timeout: "1 minute", run: () => {} })
    const res = await admin({ jobs: [job], consumers: [] }).request(
      `/jobs/${job.name}/history`,
      { headers: { authorization: "Bearer previous-schema-token" } },
      { DB: binding(), ADMIN_TOKEN: "previous-schema-token" },
    )
    expect(res.status).toBe(500)
    expect(res.headers.get("content-type")).toBe("application/problem+json")
    const [line] = logs.of("admin request failed").filter((logged) => logged.path === `/jobs/${job.name}/history`)
    expect(sinceNames()).toContain(namedMigration(line?.error))
  })

  it("commits today's ctx.once, whose table the previous schema already has", async () => {
    const key = `job:${fresh()}/item`
    expect((await commitOnce(binding(), key, [binding().prepare("SELECT 1")], T0)).status).toBe("applied")
    expect((await commitOnce(binding(), key, [binding().prepare("SELECT 1")], T0)).status).toBe("duplicate")
  })
}
