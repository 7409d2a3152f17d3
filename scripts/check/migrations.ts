/**
 * `npm run check`'s migrations drift check: the example app's migrations/ holds each of the engine's D1
 * migrations (src/infra/migrations) as `slotwise-migrations` copies them, NNNN_slotwise_<name>.sql, byte for
 * byte and in the engine's order, and no slotwise_ copy the engine does not have; and no engine migration drops or
 * renames a table or column without saying it is a contract step (contractingStatements).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
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

/**
 * Each way a folder's PostgreSQL twins (its postgres/ subfolder, for the container on PostgreSQL) differ from
 * its D1 migrations: one twin per migration, the same file name; and migrations/postgres/ holds each engine
 * twin, byte for byte, under the name of the app's copy of that engine migration.
 */
export function postgresTwinDrift(engineDir: string, appDir: string): string[] {
  const problems: string[] = []
  for (const dir of [engineDir, appDir]) {
    const d1 = new Set(sqlFiles(dir))
    const twins = new Set(sqlFiles(path.join(dir, "postgres")))
    const shown = path.relative(ROOT, dir)
    for (const file of d1)
      if (!twins.has(file)) problems.push(`${shown}/${file} has no PostgreSQL twin ${shown}/postgres/${file}`)
    for (const file of twins)
      if (!d1.has(file)) problems.push(`${shown}/postgres/${file} is the twin of no D1 migration`)
  }
  const engineTwins = path.join(engineDir, "postgres")
  for (const file of sqlFiles(engineTwins)) {
    const copy = sqlFiles(appDir).find((name) => COPY.exec(name)?.[1] === file.replace(/^\d+_/, ""))
    const twin = copy && path.join(appDir, "postgres", copy)
    if (twin && existsSync(twin) && !readFileSync(path.join(engineTwins, file)).equals(readFileSync(twin)))
      problems.push(`migrations/postgres/${copy} differs from src/infra/migrations/postgres/${file}`)
  }
  return problems
}

/** A statement that takes away what a running release may use: a dropped or renamed table or column. */
const CONTRACTS = /\b(?:DROP\s+(?:TABLE|COLUMN)|RENAME\s+(?:TO|COLUMN))\b/i
/** The line that must stand right above such a statement: what goes, and the release since which nothing uses it. */
const CONTRACT_NOTE = /^--\s*contract:.*\bunused since \d+\.\d+\.\d+/i

/**
 * Migrations only expand (docs/upgrading.md): a statement that drops or renames a table or column, in an engine
 * migration or its PostgreSQL twin, is a contract step, allowed only right below a `-- contract: <what>, unused since
 * <release>` line, once no release still deployed beside it uses what it takes away (CHANGELOG.md says when).
 */
export function contractingStatements(engineDir: string): string[] {
  const problems: string[] = []
  for (const dir of [engineDir, path.join(engineDir, "postgres")]) {
    for (const file of sqlFiles(dir)) {
      const lines = readFileSync(path.join(dir, file), "utf8").split("\n")
      lines.forEach((line, i) => {
        if (CONTRACTS.test(line.replace(/--.*$/, "")) && !CONTRACT_NOTE.test(lines[i - 1]?.trim() ?? "")) {
          problems.push(
            `${path.relative(ROOT, path.join(dir, file))}:${i + 1} drops or renames (\`${line.trim()}\`) without a ` +
              "`-- contract: <what>, unused since <release>` line above it: migrations only expand",
          )
        }
      })
    }
  }
  return problems
}

const problems = [...migrationDrift(ENGINE, APP), ...postgresTwinDrift(ENGINE, APP), ...contractingStatements(ENGINE)]
if (problems.length > 0) {
  console.error(
    `migrations/ has drifted from the engine's D1 migrations or their PostgreSQL twins, or one contracts:\n  ${problems.join("\n  ")}\n` +
      "A missing copy: `npm run build && node bin/slotwise-migrations.js migrations`. A changed engine migration that\n" +
      "was released: add a new one instead; a copy edited by hand: copy the engine's file back. A missing PostgreSQL\n" +
      "twin: write it (BIGINT for epoch milliseconds) under postgres/ with the D1 file's name.",
  )
  process.exitCode = 1
} else
  console.log(
    "migrations/: every engine migration copied unchanged, in order; every one has its PostgreSQL twin; none drops or renames",
  )
