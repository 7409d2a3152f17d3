import { env } from "cloudflare:workers"
import { describe } from "vitest"
import { leaseReleaseClockScenarios } from "../support/lease-release-scenarios.ts"

// The same scenarios run on libSQL and a PostgreSQL server in test/node/lease-release-clock.test.ts.
describe("admin's lease release on D1, judged by D1's clock", () => {
  leaseReleaseClockScenarios(() => env.DB)
})
