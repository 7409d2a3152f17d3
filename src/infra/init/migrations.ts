import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { type WriteFs, writeAtomic } from "./atomic-write.ts"

/** The engine's D1 migrations as the package ships them (dist/migrations, src/infra/migrations in this repository). */
export const SHIPPED_MIGRATIONS = fileURLToPath(new URL("../migrations/", import.meta.url))

/** A migration's name without its number: 0001_jobs_leases.sql and 0007_slotwise_jobs_leases.sql both name jobs_leases. */
const unnumbered = (file: string) => file.replace(/^\d+_/, "").replace(/^slotwise_/, "")
/** What a migration says, whitespace aside: a copy renamed or re-indented is still the same migration. */
const contentOf = (file: string) =>
  createHash("sha256").update(readFileSync(file, "utf8").replace(/\s+/g, " ").trim()).digest("hex")

/** One shipped migration to copy, and the name it gets in the Worker's folder. */
export interface MigrationCopy {
  from: string
  to: string
}

/**
 * The slotwise migrations `target` does not hold yet, numbered after its newest file so that `wrangler d1
 * migrations apply` runs them after the Worker's own, in the order they ship. A migration already there, under
 * any name, is recognised by its content and not copied again.
 */
export function plannedMigrations(
  target: string,
  source = SHIPPED_MIGRATIONS,
): { copies: MigrationCopy[]; shipped: number } {
  const present = existsSync(target) ? readdirSync(target).filter((file) => file.endsWith(".sql")) : []
  const copiedNames = new Set(present.filter((file) => /^\d+_slotwise_/.test(file)).map(unnumbered))
  const copiedContents = new Set(present.map((file) => contentOf(path.join(target, file))))
  let next = Math.max(0, ...present.map((file) => Number.parseInt(file, 10)).filter(Number.isFinite))
  const shipped = readdirSync(source)
    .filter((file) => file.endsWith(".sql"))
    .sort()
  const copies: MigrationCopy[] = []
  for (const file of shipped) {
    const from = path.join(source, file)
    if (copiedNames.has(unnumbered(file)) || copiedContents.has(contentOf(from))) continue
    next += 1
    copies.push({ from, to: path.join(target, `${String(next).padStart(4, "0")}_slotwise_${unnumbered(file)}`) })
  }
  return { copies, shipped: shipped.length }
}

/** Copies the planned migrations, creating the folder; each whole or not at all (atomic-write.ts). */
export function copyMigrations(copies: readonly MigrationCopy[], io?: WriteFs): void {
  for (const { from, to } of copies) writeAtomic(to, readFileSync(from, "utf8"), io)
}
