/**
 * `npm run check`'s docs check. Every file src/infra/ARCHITECTURE.md names in backticks exists (a section may name a
 * file from its own folder: `stream/core.ts`, `core.ts`); every file of this repository README.md and the guides (docs/*.md) name in backticks under src/infra/, src/slices/, test/, scripts/ or
 * bin/ exists (the Guarantees table's tests among them); every relative link in those pages resolves to a file, and its
 * #anchor to a heading there; and a page the package ships links only to files it ships (package.json's `files`), so
 * a reader of node_modules/slotwise/README.md meets no dead link.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

const ARCHITECTURE = "src/infra/ARCHITECTURE.md"
/** A file or folder path as the pages write one in backticks: `jobs/handlers/run.ts`, `log.ts`, `test/sim/`. */
const FILE_PATH = /^[\w.@-]+(?:\/[\w.@-]+)*(?:\.(?:ts|js|mjs|cjs|json|jsonc|sql|md|toml|sh|yaml)|\/)$/
/** The folders whose paths README and the guides name as this repository's (`src/index.ts` there is an adopter's). */
const REPOSITORY_PATH = /^(?:src\/infra|src\/slices|test|scripts|bin)\//
/** npm ships these whatever `files` says. */
const ALWAYS_SHIPPED = ["package.json", "README.md"]

const read = (root: string, file: string) => readFileSync(path.join(root, file), "utf8")

/** The page without its fenced blocks (each line kept, blank, so nothing joins across them). */
const prose = (page: string) => page.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ""))

/** The tokens a page's prose writes in backticks. */
const codeSpans = (page: string) => [...prose(page).matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string)

/** The relative links (and images) of a page's prose, code spans left out: each target as written. */
const linkTargets = (page: string) =>
  [
    ...prose(page)
      .replace(/`[^`\n]*`/g, "")
      .matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
  ]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z][a-z\d+.-]*:/i.test(target))

/** GitHub's anchor for each heading of a page: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
export function headingAnchors(page: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, text] of prose(page).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = (text as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-")
    const repeat = seen.get(slug) ?? 0
    seen.set(slug, repeat + 1)
    anchors.add(repeat === 0 ? slug : `${slug}-${repeat}`)
  }
  return anchors
}

/** Whether package.json's `files` (folders, files, `*` and `**` patterns) takes this path into the package. */
function shippedBy(files: string[]): (file: string) => boolean {
  const patterns = files.map((entry) => {
    const pattern = entry.replace(/\/$/, "")
    const glob = pattern
      .split(/(\*\*\/?|\*)/)
      .map((part) =>
        part.startsWith("**") ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("")
    return new RegExp(`^${glob}(?:/.*)?$`)
  })
  return (file) => ALWAYS_SHIPPED.includes(file) || patterns.some((pattern) => pattern.test(file))
}

/**
 * Whether a path names a file .gitignore lists one by one (or ends one: `page.generated.ts`): a generated file, which
 * a page may name before it is generated.
 */
function generated(root: string): (token: string) => boolean {
  const listed = existsSync(path.join(root, ".gitignore"))
    ? read(root, ".gitignore")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "" && !line.startsWith("#") && !/[*?[]/.test(line))
    : []
  return (token) => listed.some((file) => file === token || file.endsWith(`/${token}`))
}

/** Every file named by a backticked path in src/infra/ARCHITECTURE.md that exists nowhere it could mean. */
function architectureProblems(root: string): string[] {
  // Each file and folder of the engine by its path from src/infra/, with a leading slash: a section's `stream/core.ts`
  // is the one path ending in /stream/core.ts.
  const engine = (readdirSync(path.join(root, "src/infra"), { recursive: true }) as string[]).map(
    (file) => `/${file.split(path.sep).join("/")}`,
  )
  const exists = (token: string) =>
    existsSync(path.join(root, "src/infra", token)) ||
    existsSync(path.join(root, token)) ||
    engine.some((file) => file.endsWith(`/${token.replace(/\/$/, "")}`))
  const ignored = generated(root)
  return codeSpans(read(root, ARCHITECTURE))
    .filter((token) => FILE_PATH.test(token) && !ignored(token) && !exists(token))
    .map((token) => `${ARCHITECTURE} names \`${token}\`, which is no file of src/infra/ nor of the root`)
}

/** Every relative link of a page that does not resolve, or leaves what the package ships from a page it ships. */
function linkProblems(root: string, page: string, shipped: (file: string) => boolean): string[] {
  const problems: string[] = []
  for (const target of linkTargets(read(root, page))) {
    const [file = "", anchor] = target.split("#")
    const resolved = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file))
    const full = path.join(root, resolved)
    if (!existsSync(full)) problems.push(`${page} links to ${target}: there is no ${resolved}`)
    else if (
      anchor !== undefined &&
      (statSync(full).isDirectory() || !headingAnchors(read(root, resolved)).has(anchor))
    )
      problems.push(`${page} links to ${target}: ${resolved} has no heading #${anchor}`)
    else if (shipped(page) && !shipped(resolved))
      problems.push(`${page} links to ${target}, which the package does not ship (package.json "files")`)
  }
  return problems
}

/** Each way the pages have drifted from the repository; empty when every name and link holds. */
export function docProblems(root: string): string[] {
  const guides = existsSync(path.join(root, "docs"))
    ? readdirSync(path.join(root, "docs"))
        .filter((file) => file.endsWith(".md"))
        .sort()
        .map((file) => `docs/${file}`)
    : []
  const pages = ["README.md", ...guides]
  const shipped = shippedBy(JSON.parse(read(root, "package.json")).files ?? [])
  const ignored = generated(root)
  const named = pages.flatMap((page) =>
    codeSpans(read(root, page))
      .filter((token) => FILE_PATH.test(token) && REPOSITORY_PATH.test(token) && !ignored(token))
      .filter((token) => !existsSync(path.join(root, token)))
      .map((token) => `${page} names \`${token}\`, which does not exist`),
  )
  return [
    ...architectureProblems(root),
    ...named,
    ...[...pages, ARCHITECTURE].flatMap((page) => linkProblems(root, page, shipped)),
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = docProblems(fileURLToPath(new URL("../../", import.meta.url)))
  if (problems.length > 0) {
    console.error(`The docs name files or links that do not hold:\n  ${problems.join("\n  ")}`)
    process.exitCode = 1
  } else
    console.log("docs: every file ARCHITECTURE.md, README and the guides name exists; every relative link resolves")
}
