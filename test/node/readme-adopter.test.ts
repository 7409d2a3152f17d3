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
const FILE_NAME = /^(?:\/\/|#|--) ((?:src|migrations)\/[\w./-]+|wrangler\.toml|wrangler\.jsonc|tsconfig\.json)\n/

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
  return [
    ...under("src", ".ts"),
    ...under("migrations", ".sql"),
    "tsconfig.json",
    "wrangler.jsonc",
    "wrangler.toml",
  ].sort()
}

describe("README's adopter section", () => {
  it("shows each of the adopter Worker's files, and only those, word for word", () => {
    const blocks = fileBlocks(adopterSection())
    expect([...blocks.keys()].sort()).toEqual(adopterFiles())
    for (const [file, shown] of blocks) expect(shown, file).toBe(read(path.join(adopter, file)))
  })

  it("states the lowest Node.js, wrangler, Workers types and Hono package.json states, and the lockfile pins", () => {
    const section = adopterSection().replace(/\s+/g, " ")
    const manifest = JSON.parse(read(path.join(root, "package.json")))
    const floor = (range: string) => /^(?:\^|>=)(\d+\.\d+\.\d+)$/.exec(range)?.[1]
    const node = floor(manifest.engines.node)
    const wrangler = floor(manifest.peerDependencies.wrangler)
    const types = floor(manifest.peerDependencies["@cloudflare/workers-types"])
    const hono = floor(manifest.peerDependencies.hono)
    expect([node, wrangler, types, hono]).not.toContain(undefined)
    expect(manifest.peerDependenciesMeta.wrangler).toEqual({ optional: true })
    expect(manifest.peerDependenciesMeta["@cloudflare/workers-types"]).toEqual({ optional: true })
    const lock = JSON.parse(read(path.join(adopter, "package-lock.json"))).packages
    const locked = (name: string) => lock[`node_modules/${name}`].version as string
    expect([locked("wrangler"), locked("@cloudflare/workers-types"), locked("hono")]).toEqual([wrangler, types, hono])
    for (const claim of [
      `**Node.js ${node}** or newer, **wrangler ${wrangler}** or newer within 4`,
      `**\`@cloudflare/workers-types\` ${types}** or newer within 5`,
      `hono (${manifest.peerDependencies.hono})`,
      `npm install -D wrangler@${manifest.peerDependencies.wrangler} @cloudflare/workers-types@${manifest.peerDependencies["@cloudflare/workers-types"]} typescript`,
      `on the lowest Node.js stated (${node}, from npm's \`node\` package)`,
      `(wrangler ${wrangler}, Workers types ${types}, the lowest Hono slotwise declares (${hono}))`,
      `\`wrangler\` \`${manifest.peerDependencies.wrangler}\` and \`@cloudflare/workers-types\``,
    ]) {
      expect(section.includes(claim), `README says "${claim}"`).toBe(true)
    }
  })

  it("is tried word for word: each command its sh blocks show is one run.sh runs through `readme`", () => {
    const runSh = read(path.join(adopter, "run.sh"))
    const run = new Set(
      [...runSh.matchAll(/^\s*readme (?:"([^"]+)"|'([^']+)')/gm)].map((match) => (match[1] ?? match[2]) as string),
    )
    // The tarball lines stand for `npm install slotwise`, which run.sh runs with the tarball it packed.
    const notRun = new Set([
      "cd path/to/slotwise && npm ci && npm pack",
      "cd path/to/your-worker && npm install path/to/slotwise/slotwise-0.1.0.tgz",
    ])
    const shown = new Set<string>()
    for (const [, body] of adopterSection().matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
      for (const line of (body as string).split("\n")) {
        const command = line.replace(/\s+#.*$/, "").trim()
        if (command !== "" && !command.startsWith("#")) shown.add(command)
      }
    }
    expect([...shown].filter((command) => !run.has(command) && !notRun.has(command))).toEqual([])
    expect([...run].filter((command) => !shown.has(command))).toEqual([])
  })
})
