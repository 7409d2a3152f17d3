import path from "node:path"
import { describe, expect, it } from "vitest"
import { compile, docBlocks, nodeOptions } from "../../scripts/check/doc-examples.ts"

const PAGE = [
  "# A page",
  "",
  "```ts",
  "// src/jobs.ts",
  "export const count: number = 1",
  "",
  "// src/index.ts: imports the other file the block shows",
  'import { count } from "./jobs.ts"',
  "const wrong: string = count + 1",
  "```",
  "",
  "```js",
  "// not a slotwise block: not compiled",
  "```",
  "",
].join("\n")

describe("npm run check's doc examples (scripts/check/doc-examples.ts)", () => {
  it("splits a block into the files it shows, each with its page's line and profile", () => {
    const blocks = docBlocks("docs/page.md", PAGE)
    expect(blocks.map(({ line, key, profile }) => ({ line, key, profile }))).toEqual([
      { line: 4, key: "docs/page.md: // src/jobs.ts", profile: "worker" },
      { line: 7, key: "docs/page.md: // src/index.ts: imports the other file the block shows", profile: "worker" },
    ])
  })

  it("fails on a block that stops compiling, naming the page and its line", () => {
    const blocks = docBlocks("docs/page.md", PAGE)
    const { failures } = compile(blocks, path.join(import.meta.dirname, "no-declarations"), "worker")
    expect(failures).toEqual([
      { where: "docs/page.md:9", message: "Type 'number' is not assignable to type 'string'." },
    ])
    const fixed = docBlocks("docs/page.md", PAGE.replace("const wrong: string", "const right: number"))
    expect(compile(fixed, path.join(import.meta.dirname, "no-declarations"), "worker").failures).toEqual([])
  })

  it("compiles Node blocks with docs/container.md's tsconfig: no Workers types, skipLibCheck off", () => {
    const options = nodeOptions()
    expect(options).toMatchObject({ strict: true, skipLibCheck: false, types: ["node"] })
  })
})
