/**
 * `npm run check`'s bundle budget: builds the deploy bundle offline (`wrangler deploy --dry-run`)
 * and fails when wrangler reports more than BUNDLE_BUDGET_GZIP_KIB gzipped.
 */
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

/** The Worker's upload, gzipped, as wrangler reports it (docs/limits.md, "Worker bundle"). */
const BUNDLE_BUDGET_GZIP_KIB = 100
const DRY_RUN_TIMEOUT_MS = 120_000

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler")

/** wrangler's "Total Upload: 271.22 KiB / gzip: 86.18 KiB", as numbers. */
function parseUploadSize(output: string): { rawKiB: number; gzipKiB: number } | undefined {
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output)
  return match ? { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) } : undefined
}

async function main(): Promise<void> {
  const outdir = await mkdtemp(path.join(tmpdir(), "slotwise-dry-run-"))
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [WRANGLER, "deploy", "--dry-run", "--outdir", outdir],
      { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, timeout: DRY_RUN_TIMEOUT_MS },
    )
    const size = parseUploadSize(stdout + stderr)
    if (!size) throw new Error(`wrangler deploy --dry-run printed no "Total Upload" line:\n${stdout}${stderr}`)
    const line = `Worker bundle: ${size.rawKiB} KiB, ${size.gzipKiB} KiB gzip (budget ${BUNDLE_BUDGET_GZIP_KIB} KiB gzip)`
    if (size.gzipKiB > BUNDLE_BUDGET_GZIP_KIB) {
      console.error(`${line}: over budget`)
      process.exitCode = 1
    } else console.log(line)
  } finally {
    await rm(outdir, { recursive: true, force: true })
  }
}

await main()
