import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe } from "vitest"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import { claimSlot, releaseSlot } from "../../src/infra/jobs/lease.ts"
import { claimScenarios } from "../support/claim-scenarios.ts"

// The same scenarios run on libSQL and Postgres in test/node/claim-engines.test.ts.
describe("the claim statement on D1", () => {
  const db = database(env.DB)
  claimScenarios(() => ({
    claim: (request) => claimSlot(db, request),
    release: (name, holder) => releaseSlot(db, name, holder),
    lease: async (name) => {
      const row = await db.select().from(jobsLeases).where(eq(jobsLeases.name, name)).get()
      return row && { lastSlot: row.lastSlot, leaseUntil: row.leaseUntil, holder: row.holder }
    },
  }))
})
