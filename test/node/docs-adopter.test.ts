import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../..")
const adopter = path.join(root, "test/adopter")
const read = (file: string) => readFileSync(file, "utf8")
/** The guide that adds slotwise to a Worker: every adopter file and every command it shows is the adopter's. */
const GUIDE = "docs/add-to-a-worker.md"
const guide = () => read(path.join(root, GUIDE))
const readme = () => read(path.join(root, "README.md"))

/** The line that opens a block copied from one of the adopter's files, naming the file. */
const FILE_NAME = /^(?:\/\/|#|--) ((?:src|migrations)\/[\w./-]+|wrangler\.toml|wrangler\.jsonc|tsconfig\.json)\n/

/** Each fenced block of a page that opens with a file's name: that name and the rest of the block. */
function fileBlocks(page: string, name: string): Map<string, string> {
  const blocks = new Map<string, string>()
  for (const [, body] of page.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)) {
    const named = FILE_NAME.exec(body as string)
    if (named === null) continue
    const file = named[1] as string
    if (blocks.has(file)) throw new Error(`${name} shows ${file} twice`)
    blocks.set(file, (body as string).slice(named[0].length))
  }
  return blocks
}

/** A page's sh command lines, comments after them cut. */
function shCommands(page: string): Set<string> {
  const shown = new Set<string>()
  for (const [, body] of page.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of (body as string).split("\n")) {
      const command = line.replace(/\s+#.*$/, "").trim()
      if (command !== "" && !command.startsWith("#")) shown.add(command)
    }
  }
  return shown
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

describe("the adopter's guide (docs/add-to-a-worker.md) and README's example", () => {
  it("the guide shows each of the adopter Worker's files, and only those, word for word", () => {
    const blocks = fileBlocks(guide(), GUIDE)
    expect([...blocks.keys()].sort()).toEqual(adopterFiles())
    for (const [file, shown] of blocks) expect(shown, file).toBe(read(path.join(adopter, file)))
  })

  it("README's example shows adopter files only, each word for word", () => {
    const blocks = fileBlocks(readme(), "README.md")
    expect(blocks.size).toBeGreaterThan(0)
    for (const [file, shown] of blocks) {
      expect(adopterFiles(), `README's ${file}`).toContain(file)
      expect(shown, file).toBe(read(path.join(adopter, file)))
    }
  })

  it("no other guide shows a block named as an adopter file (a fragment says so on its first line)", () => {
    const files = adopterFiles()
    const guides = readdirSync(path.join(root, "docs")).filter((file) => file.endsWith(".md"))
    for (const file of guides.filter((file) => `docs/${file}` !== GUIDE)) {
      const named = [...fileBlocks(read(path.join(root, "docs", file)), file).keys()]
      expect(
        named.filter((name) => files.includes(name)),
        file,
      ).toEqual([])
    }
  })

  it("states the lowest Node.js, wrangler, Workers types and Hono package.json states, and the lockfile pins", () => {
    const section = guide().replace(/\s+/g, " ")
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
      expect(section.includes(claim), `${GUIDE} says "${claim}"`).toBe(true)
    }
  })

  it("the guide is tried word for word: each command its sh blocks show is one run.sh runs through `guide`", () => {
    const runSh = read(path.join(adopter, "run.sh"))
    const run = new Set(
      [...runSh.matchAll(/^\s*guide (?:"([^"]+)"|'([^']+)')/gm)].map((match) => (match[1] ?? match[2]) as string),
    )
    // The tarball lines stand for `npm install slotwise`, which run.sh runs with the tarball it packed.
    const notRun = new Set([
      "cd path/to/slotwise && npm ci && npm pack",
      `cd path/to/your-worker && npm install path/to/slotwise/slotwise-${JSON.parse(read(path.join(root, "package.json"))).version}.tgz`,
    ])
    const shown = shCommands(guide())
    expect([...shown].filter((command) => !run.has(command) && !notRun.has(command))).toEqual([])
    expect([...run].filter((command) => !shown.has(command))).toEqual([])
  })

  it("README's commands are its Quick start's two, and commands the guide shows (so run.sh runs them)", () => {
    const quickStart = new Set(["npm install && npm start", "npm test"])
    const shown = shCommands(readme())
    for (const command of quickStart) expect(shown, `README shows \`${command}\``).toContain(command)
    const guideShows = shCommands(guide())
    expect([...shown].filter((command) => !quickStart.has(command) && !guideShows.has(command))).toEqual([])
  })
})
