import { HEARTBEAT_CRON } from "../jobs/handlers/heartbeat.ts"
import { BINDING } from "./bindings.ts"
import type { WranglerConfig } from "./config.ts"
import type { ConfigEdit, ConfigValue } from "./edits.ts"
import { nextMigrationTag } from "./migration-tag.ts"

/** What one scope of the config (its top level, or an environment) has of its own, and so needs added. */
export interface Scope {
  /** Where the scope is in the config: [] for the top level, ["env", "staging"] for an environment. */
  path: readonly string[]
  config: WranglerConfig
  /** The keys added where the scope has none (the top level); an environment gets only what it has of its own. */
  create: boolean
}

/** A key = value as the config's own syntax writes it. */
export const inSyntax = (file: string, key: string, value: ConfigValue) =>
  file.endsWith(".toml") ? `${key} = ${JSON.stringify(value)}` : `${JSON.stringify(key)}: ${JSON.stringify(value)}`

const where = (scope: Scope) => (scope.path.length === 0 ? "" : ` in ${scope.path.join(".")}`)

/** The heartbeat's cron, SCHEDULES and its migration in one scope; DB is the caller's (it needs a database). */
export function scopeEdits(scope: Scope, className: string): ConfigEdit[] {
  const { path, config, create } = scope
  const edits: ConfigEdit[] = []
  const crons = config.triggers?.crons
  if ((crons !== undefined || create) && !crons?.includes(HEARTBEAT_CRON)) {
    const beside = crons?.length ? `, beside ${crons.map((cron) => `"${cron}"`).join(", ")}` : ""
    const what = `the heartbeat's cron "${HEARTBEAT_CRON}"${beside}${where(scope)}`
    edits.push({ op: "append", path: [...path, "triggers", "crons"], value: HEARTBEAT_CRON, what })
  }
  const objects = config.durable_objects
  if ((objects !== undefined || create) && !objects?.bindings?.some((binding) => binding.name === BINDING.schedules)) {
    const binding: ConfigValue = { name: BINDING.schedules, class_name: className }
    const what = `the Durable Object binding SCHEDULES (class ${className})${where(scope)}`
    edits.push({ op: "append", path: [...path, "durable_objects", "bindings"], value: binding, what })
  }
  const migrations = config.migrations
  const declared = migrations?.some(
    (migration) =>
      migration.new_sqlite_classes?.includes(className) ||
      migration.renamed_classes?.some((renamed) => renamed.to === className),
  )
  if ((migrations !== undefined || create) && !declared) {
    const tag = nextMigrationTag((migrations ?? []).map((migration) => migration.tag))
    const what = `the Durable Object migration ${tag} (new_sqlite_classes ${className})${where(scope)}`
    edits.push({ op: "append", path: [...path, "migrations"], value: { tag, new_sqlite_classes: [className] }, what })
  }
  return edits
}
