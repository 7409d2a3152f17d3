import { env } from "cloudflare:workers"
import { beforeAll, describe } from "vitest"
import { COMPAT_EFFECTS_TABLE, previousReleaseScenarios } from "../support/previous-release-scenarios.ts"
import { rolloutHistoryScenarios } from "../support/rollout-history-scenarios.ts"

// The same scenarios run on libSQL and a PostgreSQL server in test/node/previous-release.test.ts.
describe("0.1.0's engine statements on D1 with today's full schema, beside today's", () => {
  beforeAll(async () => {
    await env.DB.prepare(COMPAT_EFFECTS_TABLE).run()
  })
  previousReleaseScenarios(() => env.DB)
  rolloutHistoryScenarios(() => env.DB)
})
