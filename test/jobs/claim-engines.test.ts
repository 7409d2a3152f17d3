import { env } from "cloudflare:workers"
import { describe } from "vitest"
import { d1Engine } from "../support/claim-engine.ts"
import { claimScenarios } from "../support/claim-scenarios.ts"

// The same scenarios run on libSQL and Postgres in test/node/claim-engines.test.ts.
describe("the claim statement on D1", () => {
  claimScenarios(() => d1Engine(env.DB))
})
