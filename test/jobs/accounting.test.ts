import { env } from "cloudflare:workers"
import { describe } from "vitest"
import { slotAccountingScenarios } from "../support/slot-accounting-scenarios.ts"

// The same scenarios run on libSQL and a PostgreSQL server: test/node/slot-accounting.test.ts.
describe("every due slot accounted for, on D1", () => {
  slotAccountingScenarios(() => env.DB)
})
