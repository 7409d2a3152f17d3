// A create-cloudflare template as `npm create cloudflare` writes it, from the create-cloudflare package this repository
// installs (a pinned devDependency: npm's registry, then its cache; nothing else is fetched): its files with the
// placeholders filled and `__dot__gitignore` named `.gitignore`. The Hono template's files come with the package.json
// script create-cloudflare adds (cf-typegen with --env-interface CloudflareBindings) and hono/'s package.json and
// tsconfig.json, which create-hono writes (it fetches them itself, so they are kept here).
// `node c3-template.mjs <template> <dest> [name]` or import { writeTemplate }.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs"
import path from "node:path"

const here = path.dirname(new URL(import.meta.url).pathname)
const root = path.resolve(here, "../..")
/** The templates the adopter matrix runs, each create-cloudflare's TypeScript variant. */
export const TEMPLATES = ["hello-world", "scheduled", "hello-world-durable-object", "hono"]
const COMPATIBILITY_DATE = "2026-10-06"

function files(dir) {
  return readdirSync(dir, { recursive: true }).filter((file) => statSync(path.join(dir, file)).isFile())
}

export function writeTemplate(template, dest, name = `c3-${template}`, lang = "ts") {
  const templates = path.join(root, "node_modules/create-cloudflare/templates")
  if (!existsSync(templates)) throw new Error("create-cloudflare is not installed: npm ci in the repository")
  const source =
    template === "hono" ? path.join(templates, "hono/workers/templates") : path.join(templates, template, lang)
  cpSync(source, dest, { recursive: true })
  if (template === "hono") cpSync(path.join(here, "hono"), dest, { recursive: true })
  if (existsSync(path.join(dest, "__dot__gitignore")))
    renameSync(path.join(dest, "__dot__gitignore"), path.join(dest, ".gitignore"))
  for (const file of files(dest)) {
    const full = path.join(dest, file)
    const text = readFileSync(full, "utf8")
    const filled = text
      .replaceAll("<WORKER_NAME>", name)
      .replaceAll("<PACKAGE_NAME>", name)
      .replaceAll("<COMPATIBILITY_DATE>", COMPATIBILITY_DATE)
    if (filled !== text) writeFileSync(full, filled)
  }
  return dest
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [template, dest, name] = process.argv.slice(2)
  if (!TEMPLATES.includes(template)) throw new Error(`usage: c3-template.mjs <${TEMPLATES.join("|")}> <dest> [name]`)
  writeTemplate(template, dest, name)
}
