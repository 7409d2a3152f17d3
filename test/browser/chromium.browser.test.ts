import { chmodSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { chromiumCandidates, launchChromium, mergeArgs } from "./chromium.ts"

const npmChromiumHere = process.platform === "linux" && (process.arch === "x64" || process.arch === "arm64")

/** A folder for PATH holding one executable `chromium` (a script; it is found, never launched here). */
function pathWithChromium(): { dir: string; binary: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-path-"))
  const binary = path.join(dir, "chromium")
  writeFileSync(binary, "#!/bin/sh\nexit 1\n")
  chmodSync(binary, 0o755)
  return { dir, binary }
}

describe("where the browser suite's Chromium comes from", () => {
  it("SLOTWISE_CHROMIUM alone when it is set, even with a Chromium on PATH", () => {
    const { dir } = pathWithChromium()
    const candidates = chromiumCandidates({ SLOTWISE_CHROMIUM: "/opt/mine/chrome", PATH: dir })
    expect(candidates.map((c) => c.source)).toEqual(["SLOTWISE_CHROMIUM"])
  })

  it("a system Chromium on PATH before the npm package's", async () => {
    const { dir, binary } = pathWithChromium()
    const candidates = chromiumCandidates({ PATH: dir })
    expect(candidates.map((c) => c.source)).toEqual(npmChromiumHere ? ["system", "@sparticuz/chromium"] : ["system"])
    expect(await candidates[0]?.executablePath()).toBe(binary)
  })

  it.runIf(npmChromiumHere)("the npm package's Chromium when there is none on the system, and it starts", async () => {
    const env = { PATH: mkdtempSync(path.join(tmpdir(), "slotwise-empty-path-")) }
    expect(chromiumCandidates(env).map((c) => c.source)).toEqual(["@sparticuz/chromium"])
    const browser = await launchChromium(env)
    try {
      const page = await browser.newPage()
      await page.setContent("<p data-testid=hello>hello</p>")
      expect(await page.textContent("[data-testid=hello]")).toBe("hello")
    } finally {
      await browser.close()
    }
  })

  it("one line naming the three ways when none starts", async () => {
    const failure = launchChromium({ SLOTWISE_CHROMIUM: "/nowhere/chromium", PATH: "" })
    const message = await failure.then(
      () => "started",
      (error: Error) => error.message,
    )
    expect(message).not.toContain("\n")
    expect(message).toMatch(
      /^no Chromium could start for the browser tests \(tried SLOTWISE_CHROMIUM \/nowhere\/chromium: /,
    )
    expect(message).toContain("set SLOTWISE_CHROMIUM")
    expect(message).toContain("Chromium or Chrome on PATH")
    expect(message).toContain("npm install brings @sparticuz/chromium")
  })

  it("our flags win over the npm package's, and its web-security switches are dropped", () => {
    const merged = mergeArgs(["--headless='shell'", "--single-process", "--disable-web-security", "--no-sandbox"])
    expect(merged).toContain("--headless")
    expect(merged).not.toContain("--headless='shell'")
    expect(merged).toContain("--single-process")
    expect(merged).not.toContain("--disable-web-security")
    expect(merged.filter((arg) => arg === "--no-sandbox")).toHaveLength(1)
  })
})
