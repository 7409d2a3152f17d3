import { say } from "./log.ts"
import { runWranglerQuietly } from "./wrangler.ts"

const MIGRATIONS_TIMEOUT_MS = 120_000

/**
 * The migrations a `wrangler d1 migrations apply` run names, in order. wrangler redraws its table
 * of them after each one it applies; every table lists the same names.
 */
export function migrationNames(output: string): string[] {
  const names = [...output.matchAll(/│\s*(\d{4}_[^\s│]+\.sql)\s*│/g)].map((match) => match[1] as string)
  return [...new Set(names)]
}

/**
 * Applies the local D1 migrations with wrangler's own output held back, then says one line per
 * migration applied (or that there was none); wrangler's whole output is shown only when it fails.
 */
export async function applyLocalMigrations(): Promise<void> {
  // With stdin closed wrangler answers its "continue?" prompt with its fallback (yes); CI=true makes that explicit.
  const output = await runWranglerQuietly(["d1", "migrations", "apply", "DB", "--local"], MIGRATIONS_TIMEOUT_MS, {
    CI: "true",
  })
  const applied = migrationNames(output)
  if (applied.length === 0) say("local D1: every migration already applied")
  for (const name of applied) say(`local D1: applied ${name}`)
}
