import { cpSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it, vi } from "vitest"
import { init } from "../../src/infra/init/cli.ts"

// A Worker whose project has no TypeScript, and none beside slotwise either.
vi.mock("../../src/infra/init/typescript.ts", async (original) => ({
  ...(await original<typeof import("../../src/infra/init/typescript.ts")>()),
  loadTypeScript: () => undefined,
}))

const c3 = path.resolve(import.meta.dirname, "../adopter/c3")

describe("slotwise init without TypeScript to read the entry with", () => {
  it("edits the config, leaves the entry as it is, and prints its lines, saying why and what to install", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "slotwise-init-no-ts-"))
    for (const file of ["package.json", "tsconfig.json", ".gitignore", "src", "wrangler.jsonc"]) {
      cpSync(path.join(c3, file), path.join(dir, file), { recursive: true })
    }
    const entry = readFileSync(path.join(dir, "src/index.ts"), "utf8")
    const out: string[] = []
    const code = init([], { cwd: dir, stdout: (line) => out.push(line), stderr: (line) => out.push(line) })
    expect(code, out.join("\n")).toBe(0)
    expect(readFileSync(path.join(dir, "src/index.ts"), "utf8")).toBe(entry)
    expect(readFileSync(path.join(dir, "wrangler.jsonc"), "utf8")).toContain('"minify": true')
    expect(out.join("\n")).toContain(
      "TypeScript's parser, which is not installed here (npm install --save-dev typescript",
    )
  })
})
