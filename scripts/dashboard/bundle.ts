import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { NONCE_MARK } from "../../src/infra/admin/browser-only.ts"
import { pageShell } from "../../src/infra/admin/dashboard/page.ts"
import { STYLE } from "../../src/infra/admin/dashboard/style.ts"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
/** The dashboard's browser code: TypeScript modules, type-checked with lib DOM (tsconfig.browser.json). */
export const ENTRY = path.join(ROOT, "src/infra/admin/dashboard/browser/main.ts")
/**
 * The module the page imports: ignored by git, written before anything reads it (npm start, npm test, npm run
 * build and pack, npm run typecheck, and wrangler's `[build]` command for dev and deploy).
 */
export const GENERATED = path.join(ROOT, "src/infra/admin/dashboard-script.generated.js")

const HEADER = `// Generated from src/infra/admin/dashboard/browser/ by scripts/dashboard/bundle.ts (npm run build:dashboard): do not edit.`

/** The browser code bundled and minified by esbuild, inlined with the stylesheet in the page, as the text of the generated module. */
export async function bundleDashboard(): Promise<string> {
  return moduleOf(await bundleScript())
}

/** The browser code alone, bundled and minified. */
export async function bundleScript(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    charset: "utf8",
    legalComments: "none",
    logLevel: "silent",
  })
  const code = (result.outputFiles[0]?.text ?? "").trim()
  // The page inlines the script: this text inside a string would end the script element early.
  if (/<\/script/i.test(code)) throw new Error("the dashboard bundle contains </script; split that string")
  return code
}

function moduleOf(code: string): string {
  // The stylesheet rides along: only a person's browser needs it, so it stays out of the hot module too.
  if (/<\/style/i.test(STYLE)) throw new Error("the dashboard's stylesheet contains </style")
  // The page too: its markup is only a person's browser's (the Worker puts each request's nonce at NONCE_MARK).
  const page = pageShell(NONCE_MARK, STYLE, code)
  return `${HEADER}\n/** The dashboard's page, its style and browser code inlined, NONCE_MARK where each request's nonce goes. */\nexport const PAGE = ${JSON.stringify(page)}\n`
}

/** Writes the generated module; answers whether it changed (an unchanged file keeps its mtime, so watchers stay quiet). */
export async function writeDashboard(): Promise<boolean> {
  const text = await bundleDashboard()
  const current = await readFile(GENERATED, "utf8").catch(() => "")
  if (current === text) return false
  await mkdir(path.dirname(GENERATED), { recursive: true })
  await writeFile(GENERATED, text)
  return true
}
