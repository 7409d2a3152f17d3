/**
 * `npm run check`'s bundle budget: builds the deploy bundle offline (`wrangler deploy --dry-run`) and fails when
 * the hot module, the code every request, heartbeat and alarm loads, is more than BUNDLE_BUDGET_GZIP_KIB gzipped.
 * The modules only a person's browser needs (src/infra/admin/browser-only.ts) are uploaded beside it and loaded on
 * the request that asks for them: they are reported, not budgeted (DESIGN.md, "Scale and upgrades").
 */
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { gzipSync } from "node:zlib"

/** The hot module, gzipped (docs/limits.md, "Worker bundle"). */
const BUNDLE_BUDGET_GZIP_KIB = 100
const DRY_RUN_TIMEOUT_MS = 120_000
/** wrangler names the bundle after the entry (wrangler.toml `main`). */
const HOT_MODULE = "isolate.js"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler")

/** wrangler's "Total Upload: 271.22 KiB / gzip: 86.18 KiB", as numbers. */
function parseUploadSize(output: string): { rawKiB: number; gzipKiB: number } | undefined {
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output)
  return match ? { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) } : undefined
}

const kib = (bytes: number) => Math.round((bytes / 1024) * 100) / 100

/** Each JavaScript module of the dry run's output, by its name, with its raw and gzipped size in KiB. */
async function modulesOf(outdir: string): Promise<Array<{ name: string; rawKiB: number; gzipKiB: number }>> {
  const names = (await readdir(outdir, { recursive: true })).filter((name) => name.endsWith(".js")).sort()
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(path.join(outdir, name))
      return { name, rawKiB: kib(bytes.length), gzipKiB: kib(gzipSync(bytes).length) }
    }),
  )
}

async function main(): Promise<void> {
  const outdir = await mkdtemp(path.join(tmpdir(), "slotwise-dry-run-"))
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [WRANGLER, "deploy", "--dry-run", "--outdir", outdir],
      { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, timeout: DRY_RUN_TIMEOUT_MS },
    )
    const upload = parseUploadSize(stdout + stderr)
    if (!upload) throw new Error(`wrangler deploy --dry-run printed no "Total Upload" line:\n${stdout}${stderr}`)
    const modules = await modulesOf(outdir)
    const hot = modules.find((module) => module.name === HOT_MODULE)
    if (!hot) throw new Error(`wrangler deploy --dry-run wrote no ${HOT_MODULE} in ${outdir}`)
    const lazy = modules.filter((module) => module !== hot)
    const line = `Worker bundle: hot module ${hot.rawKiB} KiB, ${hot.gzipKiB} KiB gzip (budget ${BUNDLE_BUDGET_GZIP_KIB} KiB gzip)`
    const rest = lazy.map((module) => `${module.name} ${module.gzipKiB} KiB gzip`).join(", ")
    const detail = `loaded on demand: ${rest || "nothing"}; total upload ${upload.rawKiB} KiB, ${upload.gzipKiB} KiB gzip`
    if (hot.gzipKiB > BUNDLE_BUDGET_GZIP_KIB) {
      console.error(`${line}: over budget (${detail})`)
      process.exitCode = 1
    } else console.log(`${line}; ${detail}`)
  } finally {
    await rm(outdir, { recursive: true, force: true })
  }
}

await main()
