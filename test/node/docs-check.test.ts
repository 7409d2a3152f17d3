import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { docProblems, headingAnchors } from "../../scripts/check/docs.ts"

const root = path.resolve(import.meta.dirname, "../..")

/** A repository of its own: these files, each written under the folder (folders made as needed). */
function repository(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-docs-check-"))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
  return dir
}

/** A small repository whose pages hold, in which `broken` replaces one page's text. */
function fixture(broken: Record<string, string> = {}): string {
  return repository({
    "package.json": JSON.stringify({ files: ["dist", "src/infra/ARCHITECTURE.md", "README.md", "docs/*.md"] }),
    ".gitignore": "node_modules/\nsrc/infra/admin/page.generated.ts\n",
    "src/infra/jobs/handlers/run.ts": "",
    "src/infra/schedules/stream/core.ts": "",
    "src/infra/log.ts": "",
    "test/jobs/run.test.ts": "",
    "src/infra/ARCHITECTURE.md":
      "# Map\n\n## A run\n`jobs/handlers/run.ts`, `log.ts`, a section's `stream/core.ts` and `core.ts`, `page.generated.ts`.\n\n" +
      "```\nnot-checked.ts\n```\n",
    "README.md":
      "# slotwise\n\nSee [the guide](docs/guide.md#a-whole-worker) and [the map](src/infra/ARCHITECTURE.md#a-run).\n",
    "docs/guide.md":
      "# Guide\n\n## A whole Worker\n\n| promise | backed by |\n|---|---|\n| runs once | `test/jobs/run.test.ts` |\n\n" +
      "Back to [README](../README.md), `src/index.ts` (the adopter's), `src/infra/admin/page.generated.ts`.\n",
    "docs/shot.png": "",
    ...broken,
  })
}

describe("the docs check (scripts/check/docs.ts)", () => {
  it("finds nothing in pages whose names and links hold", () => {
    expect(docProblems(fixture())).toEqual([])
  })

  it("names a file ARCHITECTURE.md names that is gone", () => {
    const problems = docProblems(
      fixture({
        "src/infra/ARCHITECTURE.md": "# Map\n\n## A run\n`jobs/handlers/run.ts` and `stream/claim.ts`, `store.ts`.\n",
      }),
    )
    expect(problems).toEqual([
      "src/infra/ARCHITECTURE.md names `stream/claim.ts`, which is no file of src/infra/ nor of the root",
      "src/infra/ARCHITECTURE.md names `store.ts`, which is no file of src/infra/ nor of the root",
    ])
  })

  it("names a test a guide cites that is gone", () => {
    const problems = docProblems(
      fixture({ "docs/guide.md": "# Guide\n\n## A whole Worker\n\n`test/jobs/gone.test.ts`\n" }),
    )
    expect(problems).toEqual(["docs/guide.md names `test/jobs/gone.test.ts`, which does not exist"])
  })

  it("names a link to no file, an anchor no heading has, and a shipped page's link to what is not shipped", () => {
    const problems = docProblems(
      fixture({
        "README.md":
          "# slotwise\n\n[gone](docs/gone.md), [anchor](docs/guide.md#by-hand), [own](#nowhere), " +
          "[image](docs/shot.png), [site](https://example.com/x.md), `[code](docs/none.md)`\n",
      }),
    )
    expect(problems).toEqual([
      "README.md links to docs/gone.md: there is no docs/gone.md",
      "README.md links to docs/guide.md#by-hand: docs/guide.md has no heading #by-hand",
      "README.md links to #nowhere: README.md has no heading #nowhere",
      'README.md links to docs/shot.png, which the package does not ship (package.json "files")',
    ])
  })

  it("anchors headings as GitHub does: lower case, punctuation dropped, spaces to dashes, repeats numbered", () => {
    const page = "# By hand: what `slotwise init` does\n## wrangler.toml or wrangler.jsonc\n## Runs\n## Runs\n"
    expect([...headingAnchors(page)]).toEqual([
      "by-hand-what-slotwise-init-does",
      "wranglertoml-or-wranglerjsonc",
      "runs",
      "runs-1",
    ])
  })

  it("finds nothing in this repository's own pages", () => {
    expect(docProblems(root)).toEqual([])
  })
})
