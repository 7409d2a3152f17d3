/**
 * `npm run check`'s examples check: every `ts` block of README.md and docs/*.md (and every `js` block that imports
 * slotwise) compiles as a user's file would, against slotwise's declarations as the package ships them (emitted
 * here, the `node` condition's included), strict and with `skipLibCheck: false`. A block that imports `slotwise/node`
 * (or is docs/container.md's) compiles on the Node profile: Node's types only, no Workers types, as in a Node
 * project; every other block on the Worker profile (Workers types, the Env of doc-examples/worker-env.d.ts). A block
 * compiles as written, or after the prelude doc-examples/preludes.ts declares for it (the imports and declarations
 * the page shows elsewhere). A block that opens with a file's name (`// src/jobs.ts`) is that file, so the page's
 * blocks import each other; one under src/slices/ sits at that path in this repository, beside the example app's
 * files it imports. `node scripts/check/doc-examples.ts`: exit 1, naming the page and line of each error.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import path from "node:path"
import { parse } from "jsonc-parser"
import ts from "typescript"
import { writeNodeTypes } from "../build/node-types.ts"
import { PRELUDES } from "./doc-examples/preludes.ts"

const root = path.resolve(import.meta.dirname, "../..")
const here = path.join(import.meta.dirname, "doc-examples")

export interface DocBlock {
  /** The page, from the repository's root. */
  doc: string
  /** The line of the page where the block's code starts. */
  line: number
  lang: "ts" | "js"
  body: string
  /** How preludes.ts names it: the page and the block's first line. */
  key: string
  profile: "worker" | "node"
}

/** A file's name opening a line of a block (`// src/jobs.ts`, `// src/index.ts: the handlers`): a file starts there. */
const FILE_LINE = /^\/\/ ((?:src|test)\/[\w./-]+\.[jt]sx?)\b/

/**
 * The blocks of a page to compile, one for each file a block shows: a block that shows several (each opening with
 * its name, after a blank line) is split there.
 */
export function docBlocks(doc: string, page: string): DocBlock[] {
  const blocks: DocBlock[] = []
  for (const match of page.matchAll(/^```(ts|typescript|js|javascript)\n([\s\S]*?)^```$/gm)) {
    const lang = match[1]?.startsWith("t") ? "ts" : "js"
    const body = match[2] as string
    if (lang === "js" && !/from\s+["']slotwise/.test(body)) continue
    const start = page.slice(0, match.index).split("\n").length + 1
    const lines = body.split("\n")
    const starts = lines.flatMap((text, i) => (i === 0 || (FILE_LINE.test(text) && lines[i - 1] === "") ? [i] : []))
    starts.forEach((from, n) => {
      const text = lines.slice(from, starts[n + 1] ?? lines.length).join("\n")
      const first = text.split("\n").find((line) => line.trim() !== "") ?? ""
      const node = /from\s+["']slotwise\/node["']/.test(text) || doc === "docs/container.md"
      const key = `${doc}: ${first.trim()}`
      blocks.push({ doc, line: start + from, lang, body: text, key, profile: node ? "node" : "worker" })
    })
  }
  return blocks
}

/** Where a block is compiled: the file it names (beside the page's other files), else a file of its own. */
function fileOf(block: DocBlock, index: number, scratch: string): string {
  const named = FILE_LINE.exec(block.body)?.[1]
  const slug = block.doc.replace(/[/.]/g, "-")
  return path.join(scratch, slug, named ?? `block-${index}.${block.lang}`)
}

/** slotwise's entry points on each profile, as package.json's exports resolve them there. */
function entries(declarations: string, profile: DocBlock["profile"]): Record<string, string[]> {
  const at = (file: string) => [path.join(declarations, file)]
  if (profile === "node") {
    return {
      slotwise: at("node-types/portable.d.ts"),
      "slotwise/portable": at("node-types/portable.d.ts"),
      "slotwise/admin": at("node-types/admin/index.d.ts"),
      "slotwise/node": at("node-types/node/index.d.ts"),
    }
  }
  return {
    slotwise: at("index.d.ts"),
    "slotwise/portable": at("portable.d.ts"),
    "slotwise/admin": at("admin/index.d.ts"),
  }
}

/** The compilerOptions of docs/container.md's tsconfig.json block, which a Node project copies. */
export function nodeOptions(): ts.CompilerOptions {
  const page = readFileSync(path.join(root, "docs/container.md"), "utf8")
  const block = /^```jsonc\n\/\/ tsconfig\.json of the Node project\n([\s\S]*?)^```$/m.exec(page)?.[1]
  if (block === undefined) throw new Error("docs/container.md shows no tsconfig.json block")
  const { compilerOptions } = parse(block) as { compilerOptions: Record<string, unknown> }
  const { options, errors } = ts.convertCompilerOptionsFromJson(compilerOptions, root)
  if (errors.length > 0) throw new Error(`docs/container.md's tsconfig.json: ${errors[0]?.messageText}`)
  return options
}

export interface Failure {
  where: string
  message: string
}

/** Compiles one profile's blocks: the errors in them, and in slotwise's declarations. */
export function compile(blocks: readonly DocBlock[], declarations: string, profile: DocBlock["profile"]) {
  const scratch = path.join(root, ".slotwise/doc-examples")
  const virtual = new Map<string, { block: DocBlock; preludeLines: number; text: string }>()
  const unused = new Set(Object.keys(PRELUDES))
  blocks.forEach((block, index) => {
    if (block.profile !== profile) return
    const prelude = PRELUDES[block.key] ?? ""
    unused.delete(block.key)
    const text = `${prelude}${prelude && !prelude.endsWith("\n") ? "\n" : ""}${block.body}`
    // A block with no import or export is a script: made a module, so blocks never share names.
    const module = /^\s*(?:import|export)\b/m.test(text) ? text : `${text}\nexport {}\n`
    virtual.set(fileOf(block, index, scratch), {
      block,
      preludeLines: prelude === "" ? 0 : prelude.replace(/\n$/, "").split("\n").length,
      text: module,
    })
  })
  const options: ts.CompilerOptions = {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2024.d.ts"],
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ["@cloudflare/workers-types"],
    // The Node profile: docs/container.md's tsconfig.json, as a Node project has it.
    ...(profile === "node" ? nodeOptions() : {}),
    allowImportingTsExtensions: true,
    allowJs: true,
    checkJs: true,
    typeRoots: [path.join(root, "node_modules/@types"), path.join(root, "node_modules")],
    baseUrl: root,
    paths: entries(declarations, profile),
  }
  const ambient = [path.join(here, "stubs.d.ts"), ...(profile === "worker" ? [path.join(here, "worker-env.d.ts")] : [])]
  const host = ts.createCompilerHost(options)
  const { fileExists, readFile, getSourceFile, directoryExists } = host
  // A page's folder mirrors this repository: a file the page does not show is the example app's (../billing/db.ts).
  const real = (file: string) => {
    if (!file.startsWith(`${scratch}/`)) return file
    const [, ...rest] = path.relative(scratch, file).split(path.sep)
    return path.join(root, ...rest)
  }
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, real(file))
  host.directoryExists = (dir) =>
    [...virtual.keys()].some((file) => file.startsWith(`${dir}/`)) || (directoryExists?.call(host, real(dir)) ?? false)
  host.readFile = (file) => virtual.get(file)?.text ?? readFile.call(host, real(file))
  host.getSourceFile = (file, language, onError, create) => {
    const own = virtual.get(file)
    if (own !== undefined) return ts.createSourceFile(file, own.text, language, true)
    const text = readFile.call(host, real(file))
    if (text !== undefined && real(file) !== file) return ts.createSourceFile(file, text, language, true)
    return getSourceFile.call(host, file, language, onError, create)
  }
  const program = ts.createProgram([...virtual.keys(), ...ambient], options, host)
  const failures: Failure[] = []
  const report = (diagnostic: ts.Diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
    const file = diagnostic.file
    if (file === undefined) return failures.push({ where: profile, message })
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
    const own = virtual.get(file.fileName)
    if (own === undefined)
      return failures.push({ where: `${path.relative(declarations, file.fileName)}:${line + 1}`, message })
    const inBlock = line - own.preludeLines
    const where =
      inBlock < 0 ? `${own.block.doc}:${own.block.line} (its prelude)` : `${own.block.doc}:${own.block.line + inBlock}`
    return failures.push({ where, message })
  }
  const inScope = (file: ts.SourceFile) => virtual.has(file.fileName) || file.fileName.startsWith(declarations)
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    if (diagnostic.file === undefined || inScope(diagnostic.file)) report(diagnostic)
  }
  return { failures, unused: [...unused].filter((key) => !blocks.some((block) => block.key === key)) }
}

/** slotwise's declarations, emitted as `npm run build` does, with the node condition's beside them. */
export function emitDeclarations(): string {
  // Inside this repository, so the declarations' own imports (hono) resolve to its node_modules as a user's would.
  mkdirSync(path.join(root, ".slotwise"), { recursive: true })
  const out = mkdtempSync(path.join(root, ".slotwise/doc-declarations-"))
  const tsc = path.join(root, "node_modules/.bin/tsc")
  execFileSync(tsc, ["-p", "tsconfig.build.json", "--emitDeclarationOnly", "--outDir", out], {
    cwd: root,
    stdio: "inherit",
  })
  writeNodeTypes(out)
  return out
}

/** The pages whose blocks are compiled. */
export const PAGES = () => [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
]

if (import.meta.url === `file://${process.argv[1]}`) {
  const blocks = PAGES().flatMap((doc) => docBlocks(doc, readFileSync(path.join(root, doc), "utf8")))
  const declarations = emitDeclarations()
  try {
    const results = [compile(blocks, declarations, "worker"), compile(blocks, declarations, "node")]
    const failures = results.flatMap((result) => result.failures)
    const stale = results[0]?.unused ?? []
    for (const { where, message } of failures) console.error(`${where}: ${message}`)
    for (const key of stale) console.error(`doc-examples/preludes.ts: no block "${key}" any more`)
    if (failures.length + stale.length > 0) process.exit(1)
    const count = (profile: string) => blocks.filter((block) => block.profile === profile).length
    console.log(`doc examples: ${count("worker")} Worker blocks and ${count("node")} Node blocks compile`)
  } finally {
    rmSync(declarations, { recursive: true, force: true })
  }
}
