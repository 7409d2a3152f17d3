#!/usr/bin/env node
// `npx slotwise-migrations [folder]`: copies the slotwise D1 migrations a Worker's migrations folder (default
// ./migrations) does not hold yet, numbered after its newest file (0007_slotwise_jobs_leases.sql), so that
// `wrangler d1 migrations apply` runs them in order. Running it again, or after an upgrade, adds only what is new.
import { nodeProblem, refuse } from "./preflight.js"

const USAGE = `Usage: npx slotwise-migrations [folder]

Copies the slotwise D1 migrations that [folder] (default: migrations) does not hold yet,
numbered after its newest file (0007_slotwise_jobs_leases.sql), so that
\`wrangler d1 migrations apply\` runs them after yours. A migration already there, under any
name, is recognised by its content and not copied again.

Options:
  -h, --help  show this help`

const args = process.argv.slice(2)
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE)
  process.exit(0)
}
const flag = args.find((arg) => arg.startsWith("-"))
if (flag !== undefined || args.length > 1) {
  const why = flag === undefined ? `one folder at most, got ${args.length}` : `unknown option "${flag}"`
  console.error(`slotwise-migrations: ${why}\n\n${USAGE}`)
  process.exit(2)
}

refuse("slotwise-migrations", nodeProblem())
// The same copy as `npx slotwise init` makes, from the built package.
const { copyMigrations, plannedMigrations } = await import("../dist/init/migrations.js")
const target = args[0] ?? "migrations"
const { copies, shipped } = plannedMigrations(target)
copyMigrations(copies)
for (const { to } of copies) console.log(`slotwise: added ${to}`)
if (copies.length === 0) console.log(`slotwise: nothing new: ${target} holds all ${shipped} slotwise migrations`)
