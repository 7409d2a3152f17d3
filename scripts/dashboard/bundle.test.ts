import { readFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { bundleDashboard, bundleScript, GENERATED, writeDashboard } from "./bundle.ts"

describe("the dashboard's bundled browser code", () => {
  it("builds into the module the route imports, exporting the page with its script inlined as one string", async () => {
    const text = await bundleDashboard()
    expect(text).toMatch(/^export const PAGE = "/m)
    expect(text).toContain(JSON.stringify(await bundleScript()).slice(1, -1))
    await writeDashboard()
    expect(await readFile(GENERATED, "utf8")).toBe(text)
  })

  it("never selects an element by data-testid, which only the tests use", async () => {
    const text = await bundleDashboard()
    expect(text).not.toMatch(/\[data-testid/)
    expect(text).not.toMatch(/dataset\.testid/)
  })
})
