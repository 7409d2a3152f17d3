import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../..")
const adopter = path.join(root, "test/adopter")
const read = (file: string) => readFileSync(file, "utf8")

/** README's "Add slotwise to an existing Worker", up to the next top-level section. */
function adopterSection(): string {
  const readme = read(path.join(root, "README.md"))
  const start = readme.indexOf("## Add slotwise to an existing Worker\n")
  if (start < 0) throw new Error('README has no "## Add slotwise to an existing Worker" section')
  const end = readme.indexOf("\n## ", start + 1)
  return readme.slice(start, end < 0 ? undefined : end)
}

/** The line that opens a block copied from one of the adopter's files, naming the file. */
const FILE_NAME = /^(?:\/\/|#|--) ((?:src|migrations)\/[\w./-]+|wrangler\.toml|tsconfig\.json)\n/

/** Each fenced block of the section that opens with a file's name: that name and the rest of the block. */
function fileBlocks(section: string): Map<string, string> {
  const blocks = new Map<string, string>()
  for (const [, body] of section.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)) {
    const named = FILE_NAME.exec(body as string)
    if (named === null) continue
    const file = named[1] as string
    if (blocks.has(file)) throw new Error(`README shows ${file} twice`)
    blocks.set(file, (body as string).slice(named[0].length))
  }
  return blocks
}

/** The adopter's own source files (slotwise's migrations are copied in by run.sh, never committed). */
function adopterFiles(): string[] {
  const under = (folder: string, ext: string) =>
    readdirSync(path.join(adopter, folder))
      .filter((file) => file.endsWith(ext) && !file.includes("_slotwise_"))
      .map((file) => `${folder}/${file}`)
  return [...under("src", ".ts"), ...under("migrations", ".sql"), "tsconfig.json", "wrangler.toml"].sort()
}

describe("README's adopter section", () => {
  it("shows each of the adopter Worker's files, and only those, word for word", () => {
    const blocks = fileBlocks(adopterSection())
    expect([...blocks.keys()].sort()).toEqual(adopterFiles())
    for (const [file, shown] of blocks) expect(shown, file).toBe(read(path.join(adopter, file)))
  })

  it("names the Hono versions the adopter is proven on: the peer range's floor and run.sh's newest", () => {
    const section = adopterSection().replace(/\s+/g, " ")
    const peer = JSON.parse(read(path.join(root, "package.json"))).peerDependencies.hono as string
    const pinned = JSON.parse(read(path.join(adopter, "package.json"))).devDependencies.hono as string
    const newest = /^NEWEST_HONO=(\S+)$/m.exec(read(path.join(adopter, "run.sh")))?.[1]
    expect(peer).toBe(`^${pinned}`)
    for (const claim of [
      `hono (${peer})`,
      `the lowest Hono slotwise declares (${pinned}) and the newest (${newest})`,
    ]) {
      expect(section.includes(claim), `README says "${claim}"`).toBe(true)
    }
  })
})
