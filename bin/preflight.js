// What every slotwise command checks before it does anything: the Node.js it runs on, and the wrangler the Worker
// has installed, against the versions slotwise's package.json states (engines.node, peerDependencies.wrangler), so
// that a version too old is named with what to install, instead of failing later (a compatibility date that the
// old wrangler's workerd refuses). Plain JavaScript with one small dependency: it runs from the installed package.
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import semver from "semver"

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
/** The Node.js versions slotwise supports (package.json engines.node). */
export const NODE_RANGE = manifest.engines.node
/** The wrangler versions slotwise supports (package.json peerDependencies.wrangler). */
export const WRANGLER_RANGE = manifest.peerDependencies.wrangler
const UPGRADE = "npm install -D wrangler@latest @cloudflare/workers-types@latest"
/** docs/add-to-a-worker.md's install line for the two, each within slotwise's range (named together, their versions agree). */
export const INSTALL_WRANGLER = `npm install -D wrangler@${WRANGLER_RANGE} @cloudflare/workers-types@${manifest.peerDependencies["@cloudflare/workers-types"]}`

/** Why this Node.js is too old, naming what to install; undefined when it is supported. */
export function nodeProblem(version = process.versions.node) {
  if (semver.satisfies(version, NODE_RANGE)) return undefined
  const lowest = semver.minVersion(NODE_RANGE)?.version
  return (
    `slotwise needs Node.js ${NODE_RANGE} (as wrangler's current releases do) and this is Node.js ${version}: ` +
    `install Node.js ${lowest} or newer (Node.js 20 is past its end of life)`
  )
}

/** The wrangler installed for the project at `cwd` (its node_modules, or a parent's): its version and folder. */
export function installedWrangler(cwd) {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "node_modules", "wrangler", "package.json")
    if (existsSync(file)) return { version: JSON.parse(readFileSync(file, "utf8")).version, dir: path.dirname(file) }
    if (path.dirname(dir) === dir) return undefined
  }
}

/** Why the wrangler installed for the project at `cwd` is too old, naming the command to run; none installed is fine. */
export function wranglerProblem(cwd) {
  const installed = installedWrangler(cwd)
  if (installed === undefined || semver.satisfies(installed.version, WRANGLER_RANGE)) return undefined
  return (
    `slotwise needs wrangler ${WRANGLER_RANGE} and ${installed.dir} is wrangler ${installed.version}, ` +
    `whose workerd refuses the compatibility dates slotwise is tested on: ${UPGRADE}`
  )
}

/** Exits with status 1 and one line naming the problem, if there is one. */
export function refuse(command, problem) {
  if (problem === undefined) return
  console.error(`${command}: ${problem}`)
  process.exit(1)
}
