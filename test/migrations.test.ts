import { env } from "cloudflare:workers"
import { describe, expect, it } from "vitest"

describe("the example app's D1 migrations", () => {
  it("hold every engine migration unchanged, in the engine's order, as docs/add-to-a-worker.md tells an adopter to bring them in", () => {
    const engine = env.ENGINE_MIGRATIONS
    const app = env.TEST_MIGRATIONS
    expect(engine.length).toBeGreaterThan(0)
    const positions = engine.map((migration) => {
      const copy = app.findIndex((candidate) => JSON.stringify(candidate.queries) === JSON.stringify(migration.queries))
      expect(copy, `${migration.name} is not among the app's migrations`).toBeGreaterThanOrEqual(0)
      return copy
    })
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
  })
})
