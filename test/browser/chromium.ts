import { execFile } from "node:child_process"
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"

/** Our flags; on a clash with the npm package's flags, ours win. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
]
/** The npm package's serverless flags that would change what the page under test may do (CSP, origins). */
const NEVER = new Set(["--disable-web-security", "--allow-running-insecure-content"])
const NPM_CHROMIUM = "@sparticuz/chromium"
/** Names on PATH, then the macOS app bundles (never on PATH). */
const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome", "chrome"]
const MACOS_APPS = [
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
]
const THREE_WAYS =
  "set SLOTWISE_CHROMIUM to a Chromium or Chrome binary, or install Chromium or Chrome on PATH, " +
  `or run on Linux x64/arm64 where npm install brings ${NPM_CHROMIUM}`
export const UI_TIMEOUT_MS = 15_000
const LAUNCH_TIMEOUT_MS = 30_000

/** A test hook; the page's own code never selects by it. */
export const byTestId = (testid: string) => `[data-testid="${testid}"]`

interface Candidate {
  /** Where it came from, for the error line. */
  source: string
  executablePath: () => Promise<string>
  args: () => Promise<string[]>
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The first Chromium or Chrome on PATH (or in /Applications), if any. */
export function systemChromium(searchPath = process.env.PATH ?? ""): string | undefined {
  const dirs = searchPath.split(path.delimiter).filter(Boolean)
  const onPath = SYSTEM_NAMES.flatMap((name) => dirs.map((dir) => path.join(dir, name)))
  return [...onPath, ...(process.platform === "darwin" ? MACOS_APPS : [])].find(isExecutable)
}

/** The npm package's flags and ours, one per flag name, ours winning. */
export function mergeArgs(theirs: readonly string[], ours: readonly string[] = CHROMIUM_ARGS): string[] {
  const byName = new Map<string, string>()
  for (const arg of [...theirs, ...ours]) if (!NEVER.has(arg)) byName.set(arg.split("=")[0] ?? arg, arg)
  return [...byName.values()]
}

const requireHere = createRequire(import.meta.url)

/**
 * The npm package's Chromium, unpacked once per version into its own folder under the temp folder.
 * The package unpacks into the temp folder itself and trusts any `chromium` already there, so it
 * runs in a child process whose TMPDIR is a fresh folder, renamed into place only when complete.
 */
async function unpackNpmChromium(): Promise<string> {
  const entry = requireHere.resolve(NPM_CHROMIUM)
  const { version } = JSON.parse(readFileSync(path.join(path.dirname(entry), "../package.json"), "utf8"))
  const folder = path.join(tmpdir(), `slotwise-chromium-${version}`)
  const binary = path.join(folder, "chromium")
  if (existsSync(binary)) return binary
  const staging = mkdtempSync(path.join(tmpdir(), "slotwise-chromium-unpacking-"))
  const script = `const { default: c } = await import(${JSON.stringify(pathToFileURL(entry).href)}); await c.executablePath()`
  try {
    await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: staging },
    })
    renameSync(staging, folder)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    // Another run unpacked the same version first: theirs is complete, since it was renamed into place.
    if (!existsSync(binary)) throw error
  }
  return binary
}

/** Where the browser suite's Chromium comes from, in the order tried. */
export function chromiumCandidates(env = process.env): Candidate[] {
  if (env.SLOTWISE_CHROMIUM) {
    const chosen = env.SLOTWISE_CHROMIUM
    return [{ source: "SLOTWISE_CHROMIUM", executablePath: async () => chosen, args: async () => CHROMIUM_ARGS }]
  }
  const candidates: Candidate[] = []
  const system = systemChromium(env.PATH)
  if (system) candidates.push({ source: "system", executablePath: async () => system, args: async () => CHROMIUM_ARGS })
  if (process.platform === "linux" && (process.arch === "x64" || process.arch === "arm64")) {
    candidates.push({
      source: NPM_CHROMIUM,
      executablePath: unpackNpmChromium,
      args: async () => mergeArgs((await import("@sparticuz/chromium")).default.args),
    })
  }
  return candidates
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0]

/**
 * Launches Chromium: SLOTWISE_CHROMIUM if set (and nothing else), else a system Chromium or
 * Chrome, else the npm package's. Where none starts, one line names the three ways; never a skip.
 * @example
 * const browser = await launchChromium()
 * const page = await browser.newPage()
 */
export async function launchChromium(env = process.env): Promise<Browser> {
  const tried: string[] = []
  for (const candidate of chromiumCandidates(env)) {
    let executablePath = candidate.source
    try {
      executablePath = await candidate.executablePath()
      const args = await candidate.args()
      return await chromium.launch({ executablePath, args, timeout: LAUNCH_TIMEOUT_MS })
    } catch (error) {
      tried.push(`${candidate.source} ${executablePath}: ${firstLine(error)}`)
    }
  }
  const why = tried.length === 0 ? `none found on ${process.platform}/${process.arch}` : `tried ${tried.join("; ")}`
  throw new Error(`no Chromium could start for the browser tests (${why}): ${THREE_WAYS}`)
}

export interface Session {
  browser: Browser
  context: BrowserContext
  page: Page
  /** Script errors and CSP refusals seen in the page since the last call. */
  errors: () => string[]
}

/** Chromium with one page, in Berlin time (so the page's UTC and local renderings differ), collecting page errors. */
export async function openBrowser(): Promise<Session> {
  const browser = await launchChromium()
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Berlin" })
  context.setDefaultTimeout(UI_TIMEOUT_MS)
  const page = await context.newPage()
  const seen: string[] = []
  page.on("pageerror", (error) => seen.push(error.message))
  // A CSP refusal is a console error; the 401, 404 and 409 answers the tests provoke are expected.
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) seen.push(message.text())
  })
  return { browser, context, page, errors: () => seen.splice(0) }
}
