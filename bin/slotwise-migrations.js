#!/usr/bin/env node
// `npx slotwise-migrations [folder]`: copies the slotwise D1 migrations a Worker's migrations folder (default
// ./migrations) does not hold yet, numbered after its newest file (0007_slotwise_jobs_leases.sql), so that
// `wrangler d1 migrations apply` runs them in order. Running it again, or after an upgrade, adds only what is new.
import { createHash } from "node:crypto"
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"

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

const target = args[0] ?? "migrations"
const source = new URL("../dist/migrations/", import.meta.url)
/** A migration's name without its number: 0001_jobs_leases.sql and 0007_slotwise_jobs_leases.sql both name jobs_leases. */
const unnumbered = (file) => file.replace(/^\d+_/, "").replace(/^slotwise_/, "")
/** What a migration says, whitespace aside: a copy renamed or re-indented is still the same migration. */
const contentOf = (file) =>
  createHash("sha256").update(readFileSync(file, "utf8").replace(/\s+/g, " ").trim()).digest("hex")

mkdirSync(target, { recursive: true })
const present = readdirSync(target).filter((file) => file.endsWith(".sql"))
const copiedNames = new Set(present.filter((file) => /^\d+_slotwise_/.test(file)).map(unnumbered))
const copiedContents = new Set(present.map((file) => contentOf(path.join(target, file))))
let next = Math.max(0, ...present.map((file) => Number.parseInt(file, 10)).filter(Number.isFinite))
const shipped = readdirSync(source)
  .filter((name) => name.endsWith(".sql"))
  .sort()
let added = 0
for (const file of shipped) {
  const from = new URL(file, source)
  if (copiedNames.has(unnumbered(file)) || copiedContents.has(contentOf(from))) continue
  next += 1
  const copy = path.join(target, `${String(next).padStart(4, "0")}_slotwise_${unnumbered(file)}`)
  copyFileSync(from, copy)
  added += 1
  console.log(`slotwise: added ${copy}`)
}
if (added === 0) console.log(`slotwise: nothing new: ${target} holds all ${shipped.length} slotwise migrations`)
