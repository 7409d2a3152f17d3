#!/usr/bin/env node
/**
 * Puts src/infra/jobs into its rooms (issue 49, item 1): `git mv`s each file to the room the map below gives it, then
 * rewrites every reference to a moved file, so the reshape is one mechanical commit that can be made again on any tree.
 *
 *   node scripts/reshape/jobs-rooms.mjs            # move and rewrite, then let Biome sort the rewritten imports
 *   node scripts/reshape/jobs-rooms.mjs --dry-run  # print what it would move and rewrite, change nothing
 *
 * Run it from a clean work tree (it refuses otherwise, so its commit holds nothing else), then `npm run check`.
 *
 * What it rewrites, in the tracked files of src/, test/, scripts/, README.md and docs/ (left out: test/compat/, whose
 * build scripts name an old release's tree; scripts/reshape/, which names the old paths on purpose; CHANGELOG.md,
 * which is history; and the migrations, whose comments may name an old path, since an applied migration's text never
 * changes and `npm run check` compares the app's copies with the engine's):
 * - every quoted relative path that resolves to a moved file: import, export, `import()`, `typeof import()`,
 *   `vi.mock`, `new URL(…, import.meta.url)`, wherever it stands (and a Markdown link's target);
 * - inside a moved file, every quoted relative path that resolves to an existing file or folder, from its new place;
 * - a moved file named by its path from the repository's root (`src/infra/jobs/run.ts`) or from src/infra/
 *   (`jobs/run.ts`, as ARCHITECTURE.md, the guides and comments write it).
 *
 * Files that exist only on some branches: a mapped file missing from this tree is reported and left out; a file in
 * src/infra/jobs/ that the map does not name (a new one, merged from another branch) stops the script before anything
 * moves, naming it, so a person gives it a room first. It is idempotent: on a tree already in rooms it changes nothing.
 * Not shipped (scripts/ is outside package.json's `files`), no dependency beyond git and the repository's Biome.
 */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import path from "node:path"

const JOBS = "src/infra/jobs"

/**
 * The rooms, lowest first; each may import only the rooms before it (.dependency-cruiser.cjs, `jobs-*` rules).
 * contract/ is what every other room shares; protocol/ and history/ sit side by side on it and never import each
 * other; handlers/ is on top.
 */
const ROOMS = {
  // What a job is and what is declared about it: the job, its slot, the registry and the declared capacity, a run's
  // record and its hour entry, a pause, the queue message the heartbeat and the queue handler share.
  contract: [
    "definition.ts",
    "slot.ts",
    "registry.ts",
    "capacity.ts",
    "record.ts",
    "hour-entry.ts",
    "pause.ts",
    "job-message.ts",
  ],
  // The D1 protocol: the slot claim and its release (each statement, how an invocation's runs share them), the
  // lease, the hours a release folds, the pauses table, and the invocation with its query budget.
  protocol: [
    "slot-claim.ts",
    "json-chunks.ts",
    "claim-batch.ts",
    "slot-release.ts",
    "release-batch.ts",
    "run-hours.ts",
    "lease.ts",
    "lease-status.ts",
    "pauses.ts",
    "query-budget.ts",
    "invocation.ts",
  ],
  // What happened, read back for admin: a job's hours, today's slots, the timeline, liveness, leases held too long.
  history: ["history.ts", "day-slots.ts", "timeline.ts", "liveness.ts", "held-leases.ts"],
  // What the Worker calls: the heartbeat, the queue hand-off and handler, and Jobs.run, the boundary both share.
  handlers: ["run.ts", "heartbeat.ts", "queue-handler.ts", "hand-off.ts"],
}

/** The folder's face stays at its door, as schedules/ keeps index.ts and namespace.ts. */
const STAYS = new Set(["index.ts", "namespace.ts"])

/**
 * The Jobs namespace's members, in the order the API report shows them: once their paths name rooms, Biome's import
 * sorter would reorder them (and so the report), so the script marks the list for it to leave alone.
 */
const KEEPS_ORDER = `${JOBS}/namespace.ts`
const KEEP_ORDER =
  "// biome-ignore assist/source/organizeImports: the members in the order a user meets them, which the API report keeps"

const CODE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/
const LEFT_OUT = /^(?:test\/compat\/|scripts\/reshape\/|CHANGELOG\.md$)/

const dryRun = process.argv.includes("--dry-run")
const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim()
process.chdir(root)

const git = (...args) => execFileSync("git", args, { encoding: "utf8" })
const posix = (file) => file.split(path.sep).join("/")

/** old path -> new path, for every mapped file present at its old place. */
function plannedMoves() {
  const moves = new Map()
  const roomOf = new Map()
  for (const [room, files] of Object.entries(ROOMS))
    for (const file of files) {
      if (roomOf.has(file)) throw new Error(`${file} is given two rooms: ${roomOf.get(file)} and ${room}`)
      roomOf.set(file, room)
    }
  const here = git("ls-files", "--cached", "--others", "--exclude-standard", "--", JOBS).split("\n").filter(Boolean)
  const unmapped = []
  for (const file of here) {
    const inside = file.slice(JOBS.length + 1)
    if (inside.includes("/")) {
      // Already in a room (a second run, or a file a later change put there): fine if the room is one of ours.
      const [room] = inside.split("/")
      if (!(room in ROOMS)) unmapped.push(file)
      continue
    }
    if (STAYS.has(inside)) continue
    const room = roomOf.get(inside)
    if (room === undefined) unmapped.push(file)
    else moves.set(file, `${JOBS}/${room}/${inside}`)
  }
  if (unmapped.length > 0) {
    console.error(
      `jobs-rooms: ${unmapped.length} file(s) in ${JOBS} have no room in this script's map; give each one in ROOMS ` +
        `(scripts/reshape/jobs-rooms.mjs) and run it again. Nothing was moved.\n  ${unmapped.join("\n  ")}`,
    )
    process.exit(1)
  }
  for (const [file, room] of roomOf) {
    const old = `${JOBS}/${file}`
    if (!moves.has(old) && !existsSync(`${JOBS}/${room}/${file}`))
      console.log(`jobs-rooms: ${old} is not on this tree (mapped to ${room}/), left out`)
  }
  return moves
}

/** The files whose text may name a moved file: tracked, under the folders above, as they will be after the moves. */
function candidates(moves) {
  return git("ls-files", "--", "src", "test", "scripts", "docs", "README.md")
    .split("\n")
    .filter((file) => file !== "" && !LEFT_OUT.test(file))
    .filter((file) => CODE.test(file) || file.endsWith(".md"))
    .map((file) => moves.get(file) ?? file)
}

/** `to` as a relative specifier from `fromDir`, always starting with ./ or ../. */
function specifier(fromDir, to) {
  const relative = posix(path.posix.relative(fromDir, to))
  return relative.startsWith(".") ? relative : `./${relative}`
}

/**
 * The text with every reference to a moved file rewritten; `file` is where it will be, `was` where it was (the same
 * unless it moved). `exists` answers for the tree before the moves.
 */
function rewrite(text, file, was, moves, exists) {
  const oldDir = path.posix.dirname(was)
  const newDir = path.posix.dirname(file)
  const moved = was !== file
  let count = 0
  const target = (relative) => {
    const resolved = path.posix.normalize(path.posix.join(oldDir, relative))
    if (moves.has(resolved)) return moves.get(resolved)
    // A `.js` specifier of a `.ts` file, as some bundler configs write them.
    const asTs = resolved.replace(/\.js$/, ".ts")
    if (asTs !== resolved && moves.has(asTs)) return moves.get(asTs).replace(/\.ts$/, ".js")
    if (moved && exists(resolved)) return resolved
    return undefined
  }
  const relink = (whole, relative, make) => {
    const to = target(relative)
    if (to === undefined) return whole
    const next = specifier(newDir, to)
    if (next === relative) return whole
    count++
    return make(next)
  }
  let out = text.replace(/(["'`])(\.{1,2}\/[^"'`\s$]*)\1/g, (whole, quote, relative) =>
    relink(whole, relative, (next) => `${quote}${next}${quote}`),
  )
  if (file.endsWith(".md"))
    out = out.replace(/\]\((\.{1,2}\/[^)#\s]+)/g, (whole, relative) => relink(whole, relative, (next) => `](${next}`))
  // Paths from the root or from src/infra/, in strings, comments and prose: never one that continues a longer path.
  out = out.replace(/(?<![\w./-])((?:src\/infra\/)?jobs\/)([\w.-]+\.ts)(?![\w.-])/g, (whole, prefix, name) => {
    const to = moves.get(`${JOBS}/${name}`)
    if (to === undefined) return whole
    count++
    return `${prefix}${to.slice(JOBS.length + 1)}`
  })
  return { out, count }
}

function main() {
  if (!dryRun) {
    const dirty = git("status", "--porcelain", "--", "src", "test", "scripts", "docs", "README.md").trim()
    if (dirty !== "") {
      console.error(
        `jobs-rooms: the work tree has changes; commit or stash them first, so the reshape is its own commit.\n${dirty}`,
      )
      process.exit(1)
    }
  }
  const moves = plannedMoves()
  const before = new Set(git("ls-files").split("\n").filter(Boolean))
  const folders = new Set(
    [...before].flatMap((file) => file.split("/").map((_, i, parts) => parts.slice(0, i).join("/"))),
  )
  const exists = (resolved) => before.has(resolved) || folders.has(resolved.replace(/\/$/, ""))
  const wasOf = new Map([...moves].map(([old, next]) => [next, old]))

  for (const [old, next] of moves) console.log(`${dryRun ? "would move" : "move"} ${old} -> ${next}`)
  if (!dryRun)
    for (const [old, next] of moves) {
      execFileSync("mkdir", ["-p", path.posix.dirname(next)])
      git("mv", old, next)
    }

  const rewritten = []
  let references = 0
  for (const file of candidates(moves)) {
    const was = wasOf.get(file) ?? file
    const source = dryRun ? was : file
    if (!existsSync(source) || !statSync(source).isFile()) continue
    const text = readFileSync(source, "utf8")
    const { out, count } = rewrite(text, file, was, moves, exists)
    if (count === 0) continue
    const kept =
      file === KEEPS_ORDER && !out.includes(KEEP_ORDER) ? out.replace(/^export /m, `${KEEP_ORDER}\nexport `) : out
    references += count
    rewritten.push(file)
    console.log(`${dryRun ? "would rewrite" : "rewrite"} ${file}: ${count}`)
    if (!dryRun) writeFileSync(file, kept)
  }
  console.log(`jobs-rooms: ${moves.size} file(s) moved, ${references} reference(s) in ${rewritten.length} file(s)`)

  const code = rewritten.filter((file) => CODE.test(file))
  if (!dryRun && code.length > 0) {
    // The rewritten specifiers change how imports sort (and may lengthen a line): Biome's own order and format.
    const biome = path.join(root, "node_modules/.bin/biome")
    if (existsSync(biome)) execFileSync(biome, ["check", "--write", ...code], { stdio: "inherit" })
    else console.log("jobs-rooms: no node_modules/.bin/biome; run `npm run format` before committing")
  }
}

main()
