// `npm run build`'s last step: dist/node-types, the declarations the `node` condition of package.json's exports
// names. They are dist's own, each importing the Workers runtime types it names from workers-globals.d.ts (this
// folder's workers-stand-ins.d.ts) instead of the globals only @cloudflare/workers-types declares, so a Node
// TypeScript project compiles slotwise/node and slotwise/portable with `skipLibCheck: false` and no Workers types.
// `node scripts/build/node-types.ts [dist]`.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import path from "node:path"

const STAND_INS = path.join(import.meta.dirname, "workers-stand-ins.d.ts")
/** The folder under dist, and the stand-ins' file in it. */
export const NODE_TYPES = "node-types"
const GLOBALS = "workers-globals.d.ts"

/** The names the stand-ins declare (each `export interface X`, `export type X` or `export declare namespace X`). */
const standIns = () =>
  [...readFileSync(STAND_INS, "utf8").matchAll(/^export (?:interface|type|declare namespace) (\w+)/gm)].map(
    (m) => m[1] as string,
  )

/** A declaration file's text with its comments out: a name in a comment needs no import. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "")

/** The declaration file as the node condition ships it: importing the stand-ins it names. */
export function withStandIns(text: string, relativeToGlobals: string, names: readonly string[]): string {
  const body = code(text)
  const used = names.filter((name) => new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(body))
  // A file that declares the name itself (none does today) keeps its own.
  const own = used.filter((name) => !new RegExp(`(?:interface|class|type|namespace)\\s+${name}\\b`).test(body))
  if (own.length === 0) return text
  return `import type { ${own.join(", ")} } from "${relativeToGlobals}";\n${text}`
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".d.ts") && !file.startsWith(`${NODE_TYPES}/`) && statSync(path.join(dir, file)).isFile(),
  )
}

/** Writes dist/node-types from dist's declarations. */
export function writeNodeTypes(dist: string): void {
  const target = path.join(dist, NODE_TYPES)
  rmSync(target, { recursive: true, force: true })
  mkdirSync(target, { recursive: true })
  copyFileSync(STAND_INS, path.join(target, GLOBALS))
  const names = standIns()
  for (const file of files(dist)) {
    const out = path.join(target, file)
    mkdirSync(path.dirname(out), { recursive: true })
    let relative = path.relative(path.dirname(out), path.join(target, GLOBALS.replace(/\.d\.ts$/, ".js")))
    if (!relative.startsWith(".")) relative = `./${relative}`
    writeFileSync(out, withStandIns(readFileSync(path.join(dist, file), "utf8"), relative, names))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) writeNodeTypes(path.resolve(process.argv[2] ?? "dist"))
