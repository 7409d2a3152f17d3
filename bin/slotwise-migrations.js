#!/usr/bin/env node
// `npx slotwise-migrations [--postgres] [folder]`: copies the slotwise migrations a folder (default ./migrations,
// or ./migrations/postgres for the PostgreSQL twins) does not hold yet, numbered after its newest file, so that
// `wrangler d1 migrations apply` or Container.start runs them in order. Running it again, or after an upgrade,
// adds only what is new.
import path from "node:path"
import { fileURLToPath } from "node:url"
import { nodeProblem, refuse } from "./preflight.js"

const usage = (plan) => `Usage: npx slotwise-migrations [--postgres] [folder]

Copies the slotwise migrations that [folder] does not hold yet, numbered after its newest
file, so that they run after yours. A migration already there, under any name, is
recognised by its content and not copied again.

  (default)   the D1 and SQLite migrations, into migrations: \`wrangler d1 migrations apply\`
              applies them on a Worker, Container.start on libSQL
  --postgres  their PostgreSQL twins, into migrations/postgres: Container.start applies them
              on PostgreSQL

Options:
  --postgres  copy the PostgreSQL twins
  -h, --help  show this help

Run now, it ${plan}`

refuse("slotwise-migrations", nodeProblem())
// The same plan and copy as `npx slotwise init` makes, from the built package.
const { copyMigrations, plannedMigrations } = await import("../dist/init/migrations.js")

/** What a run would do now, for --help: the first and last file it would write, or nothing. */
function describePlan({ copies, shipped }, target) {
  if (copies.length === 0) return `would copy nothing: ${target} holds all ${shipped} slotwise migrations.`
  const [first] = copies
  const last = copies.at(-1)
  const range = copies.length === 1 ? first.to : `${first.to} … ${last.to}`
  return `would copy ${copies.length} into ${target}: ${range}.`
}

const args = process.argv.slice(2)
const postgres = args.includes("--postgres")
const help = args.includes("--help") || args.includes("-h")
const unknown = args.find((arg) => arg.startsWith("-") && !["--postgres", "--help", "-h"].includes(arg))
const folders = args.filter((arg) => !arg.startsWith("-"))
const dist = fileURLToPath(new URL("../dist/migrations/", import.meta.url))
const source = postgres ? path.join(dist, "postgres") : dist
const target = folders[0] ?? (postgres ? path.join("migrations", "postgres") : "migrations")

/** The usage, ending with what a run would do now (or why that cannot be told). */
function usageNow() {
  try {
    return usage(describePlan(plannedMigrations(target, source), target))
  } catch (error) {
    return usage(`cannot tell what it would copy: ${error.message}`)
  }
}

if (unknown !== undefined || folders.length > 1) {
  const why = unknown === undefined ? `one folder at most, got ${folders.length}` : `unknown option "${unknown}"`
  console.error(`slotwise-migrations: ${why}\n\n${usageNow()}`)
  process.exit(2)
}
if (help) {
  console.log(usageNow())
  process.exit(0)
}
const planned = plannedMigrations(target, source)
copyMigrations(planned.copies)
for (const { to } of planned.copies) console.log(`slotwise: added ${to}`)
if (planned.copies.length === 0) {
  console.log(`slotwise: nothing new: ${target} holds all ${planned.shipped} slotwise migrations`)
}
