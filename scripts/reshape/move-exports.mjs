#!/usr/bin/env node
/**
 * After a file is split (issue 49, item 2; /work/i49-split-plan.md), this points every import of a moved name at its
 * new file. Move the code by hand first, so the old file no longer exports the names that left it. Then run:
 *
 *   node scripts/reshape/move-exports.mjs <old file> <name>=<new file> ... [--dry-run]
 *   node scripts/reshape/move-exports.mjs src/infra/schedules/contract/definition.ts \
 *     NAME=src/infra/schedules/contract/limits.ts ScheduleDefinitionError=src/infra/schedules/contract/definition-error.ts
 *
 * In the tracked code of src/, test/ and scripts/ (test/compat/ and scripts/reshape/ left out), every
 * `import { … } from` and `export { … } from` whose specifier resolves to the old file is cut into one statement per
 * file its names now live in. A `type` on a name or on the statement is kept, as is an `as` alias. Names the map does
 * not give stay with the old file. Then Biome sorts and formats the files it changed.
 *
 * `import * as x from` the old file is reported and left alone, because its uses (`x.name`) span many lines: make the
 * old file a folder with an `index.ts` that re-exports the parts (the plan for stream/core.ts), or move those uses by
 * hand. Not shipped, and it needs nothing beyond git and the repository's Biome.
 */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"

const CODE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/
const LEFT_OUT = /^(?:test\/compat\/|scripts\/reshape\/)/

const args = process.argv.slice(2)
const dryRun = args.includes("--dry-run")
const [from, ...pairs] = args.filter((arg) => arg !== "--dry-run")
if (from === undefined || pairs.length === 0) {
  console.error("usage: node scripts/reshape/move-exports.mjs <old file> <name>=<new file> ... [--dry-run]")
  process.exit(2)
}
const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim()
process.chdir(root)

/** name -> the new file, each a path from the repository's root. */
const moves = new Map()
for (const pair of pairs) {
  const [name, file] = pair.split("=")
  if (!name || !file) throw new Error(`"${pair}" is not <name>=<new file>`)
  if (!existsSync(file)) throw new Error(`${file} (for ${name}) does not exist: move the code first`)
  moves.set(name, path.posix.normalize(file))
}

/** `to` as a relative specifier from the file `at`, always starting with ./ or ../. */
function specifier(at, to) {
  const relative = path.posix.relative(path.posix.dirname(at), to)
  return relative.startsWith(".") ? relative : `./${relative}`
}

/** One specifier of a braced list: `type A as B` -> { name: "A", text: "type A as B" }. */
function parts(list) {
  return list
    .split(",")
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text) => ({
      text,
      name: text
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0]
        .trim(),
    }))
}

const STATEMENT = /(^|\n)([ \t]*)(import|export)(\s+type)?\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\6/g
const NAMESPACE = /import\s+(?:type\s+)?\*\s+as\s+\w+\s+from\s+(["'])([^"']+)\1/g

const files = execFileSync("git", ["ls-files", "--", "src", "test", "scripts"], { encoding: "utf8" })
  .split("\n")
  .filter((file) => CODE.test(file) && !LEFT_OUT.test(file))
const changed = []
let statements = 0
for (const file of files) {
  const text = readFileSync(file, "utf8")
  const resolves = (spec) =>
    spec.startsWith(".") && path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) === from
  for (const match of text.matchAll(NAMESPACE))
    if (resolves(match[2])) console.log(`move-exports: ${file} imports the old file as a namespace; left alone`)
  const out = text.replace(STATEMENT, (whole, lead, indent, verb, typeOnly, list, quote, spec) => {
    if (!resolves(spec)) return whole
    const groups = new Map()
    for (const part of parts(list)) {
      const target = moves.get(part.name) ?? from
      groups.set(target, [...(groups.get(target) ?? []), part.text])
    }
    if (groups.size === 1 && groups.has(from)) return whole
    statements++
    const lines = [...groups].map(
      ([target, names]) =>
        `${indent}${verb}${typeOnly ?? ""} { ${names.join(", ")} } from ${quote}${target === from ? spec : specifier(file, target)}${quote}`,
    )
    return `${lead}${lines.join("\n")}`
  })
  if (out === text) continue
  changed.push(file)
  console.log(`${dryRun ? "would rewrite" : "rewrite"} ${file}`)
  if (!dryRun) writeFileSync(file, out)
}
console.log(`move-exports: ${statements} statement(s) in ${changed.length} file(s)`)
const biome = path.join(root, "node_modules/.bin/biome")
if (!dryRun && changed.length > 0 && existsSync(biome))
  execFileSync(biome, ["check", "--write", ...changed], { stdio: "inherit" })
