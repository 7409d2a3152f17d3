import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { say } from "./log.ts"
import { ROOT } from "./wrangler.ts"

const MIGRATIONS_TIMEOUT_MS = 120_000
const APPLY = fileURLToPath(new URL("./apply-migrations.ts", import.meta.url))

/**
 * Applies the local D1 migrations with the runtime's own output held back, then says one line per
 * migration applied (or that there was none); the whole output is shown only when it fails.
 */
export async function applyLocalMigrations(): Promise<void> {
  const { stdout } = await promisify(execFile)(process.execPath, [APPLY], {
    cwd: ROOT,
    timeout: MIGRATIONS_TIMEOUT_MS,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`applying the local D1 migrations failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`)
  })
  const applied = JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]") as string[]
  if (applied.length === 0) say("local D1: every migration already applied")
  for (const name of applied) say(`local D1: applied ${name}`)
}
