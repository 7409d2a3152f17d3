#!/usr/bin/env node
// `npx slotwise-migrations [dir]`: copies the slotwise D1 migrations a Worker's migrations folder (default
// ./migrations) does not hold yet, numbered after its newest file (0007_slotwise_jobs_leases.sql), so that
// `wrangler d1 migrations apply` runs them in order. Running it again, or after an upgrade, adds only what is new.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs"
import path from "node:path"

const target = process.argv[2] ?? "migrations"
const source = new URL("../dist/migrations/", import.meta.url)
/** A migration's name without its number: 0001_jobs_leases.sql and 0007_slotwise_jobs_leases.sql both name jobs_leases. */
const unnumbered = (file) => file.replace(/^\d+_/, "").replace(/^slotwise_/, "")

mkdirSync(target, { recursive: true })
const present = readdirSync(target).filter((file) => file.endsWith(".sql"))
const copied = new Set(present.filter((file) => /^\d+_slotwise_/.test(file)).map(unnumbered))
let next = Math.max(0, ...present.map((file) => Number.parseInt(file, 10)).filter(Number.isFinite))
for (const file of readdirSync(source)
  .filter((name) => name.endsWith(".sql"))
  .sort()) {
  if (copied.has(unnumbered(file))) continue
  next += 1
  const copy = path.join(target, `${String(next).padStart(4, "0")}_slotwise_${unnumbered(file)}`)
  copyFileSync(new URL(file, source), copy)
  console.log(`slotwise: added ${copy}`)
}
