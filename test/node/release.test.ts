import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { SLOTWISE_VERSION } from "../../src/infra/version.ts"

describe("the release", () => {
  it("is the one package.json names, and CHANGELOG.md has its entry", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { version: string }
    expect(SLOTWISE_VERSION).toBe(manifest.version)
    expect(readFileSync("CHANGELOG.md", "utf8")).toMatch(
      new RegExp(`^## ${manifest.version.replaceAll(".", "\\.")}\\b`, "m"),
    )
  })
})
