import { readFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { bundleDashboard, GENERATED } from "./bundle.ts"

describe("the dashboard's bundled browser code", () => {
  it("is committed as the browser code bundles now (npm run build:dashboard writes it)", async () => {
    expect(await readFile(GENERATED, "utf8")).toBe(await bundleDashboard())
  })

  it("never selects an element by data-testid, which only the tests use", async () => {
    const text = await bundleDashboard()
    expect(text).not.toMatch(/\[data-testid/)
    expect(text).not.toMatch(/dataset\.testid/)
  })
})
