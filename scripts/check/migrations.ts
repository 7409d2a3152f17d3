/**
 * `npm run check`'s migrations drift check: the example app's migrations/ holds each of the engine's D1
 * migrations (src/infra/migrations) as `slotwise-migrations` copies them, NNNN_slotwise_<name>.sql, byte for
 * byte and in the engine's order, and no slotwise_ copy the engine does not have.
 */
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const ENGINE = path.join(ROOT, "src/infra/migrations")
const APP = path.join(ROOT, "migrations")
/** How the bin names a copy: the engine's file without its number, after the app's own number and `slotwise_`. */
const COPY = /^\d+_slotwise_(.+\.sql)$/

const sqlFiles = (dir: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()

/** Each way migrations/ differs from what `slotwise-migrations` would leave there; empty when in step. */
export function migrationDrift(engineDir: string, appDir: string): string[] {
  const engine = sqlFiles(engineDir).map((file) => ({ file, name: file.replace(/^\d+_/, "") }))
  const copies = new Map(
    sqlFiles(appDir).flatMap((file) => {
      const name = COPY.exec(file)?.[1]
      return name ? [[name, file] as const] : []
    }),
  )
  const problems: string[] = []
  let previous = ""
  for (const { file, name } of engine) {
    const copy = copies.get(name)
    copies.delete(name)
    if (!copy) problems.push(`${file} has no copy in migrations/`)
    else if (!readFileSync(path.join(engineDir, file)).equals(readFileSync(path.join(appDir, copy))))
      problems.push(`migrations/${copy} differs from src/infra/migrations/${file}`)
    else if (copy < previous)
      problems.push(`migrations/${copy} runs before migrations/${previous}, not in the engine's order`)
    if (copy) previous = copy
  }
  for (const copy of copies.values()) problems.push(`migrations/${copy} is a copy of no engine migration`)
  return problems
}

const problems = migrationDrift(ENGINE, APP)
if (problems.length > 0) {
  console.error(
    `migrations/ has drifted from the engine's D1 migrations:\n  ${problems.join("\n  ")}\n` +
      "A missing copy: `npm run build && node bin/slotwise-migrations.js migrations`. A changed engine migration that\n" +
      "was released: add a new one instead; a copy edited by hand: copy the engine's file back.",
  )
  process.exitCode = 1
} else console.log("migrations/: every engine migration copied unchanged, in order")
