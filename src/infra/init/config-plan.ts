import { BINDING, bindingsOf, STREAM_CLASS } from "./bindings.ts"
import { type WranglerConfig, wranglerConfig } from "./config.ts"
import { DEFAULT_MIGRATIONS_DIR, newDatabase } from "./database-binding.ts"
import type { ConfigEdit, ConfigObject } from "./edits.ts"
import { planEnvironments } from "./environments.ts"
import { BindingConflictError } from "./errors.ts"
import { inSyntax, scopeEdits } from "./scope-edits.ts"

const D1 = "a D1 database"
const DURABLE_OBJECT = "a Durable Object namespace"
const ANALYTICS_ENGINE = "an Analytics Engine dataset"

/** What init changes in a wrangler config, and what it learned for the rest of the Worker. */
export interface ConfigPlan {
  /** Only additions; none when the config has all slotwise needs. */
  edits: ConfigEdit[]
  /** DB's migrations folder, relative to the config: slotwise's migrations go there, after the Worker's own. */
  migrationsDir: string
  /** The class SCHEDULES binds, which the entry exports. */
  className: string
  /** The D1 binding DB, as the config has it or as init adds it. */
  database: ConfigObject
  /** What the user should know that init does not do (environments, an explicit `minify = false`). */
  notes: string[]
}

/** Whether the entry builds `className` with Schedules.durableObject (a slotwise class under a name of its own). */
export const declaresStreamClass = (entry: string | undefined, className: string) =>
  entry !== undefined && new RegExp(`class\\s+${className}\\s+extends\\s+Schedules\\.durableObject\\b`).test(entry)

/** Throws BindingConflictError, naming the binding and the file, where a fixed name is taken by something else. */
function refuseConflicts(file: string, config: WranglerConfig, value: ConfigObject, entry: string | undefined) {
  const refuse = (message: string) => {
    throw new BindingConflictError(`${file}: ${message}; init changed nothing`)
  }
  for (const { name, kind } of bindingsOf(value)) {
    if (name === BINDING.db && kind !== D1) {
      refuse(`the binding DB is ${kind}, but slotwise reads its D1 database as env.DB: rename yours (and its uses)`)
    }
    if (name === BINDING.schedules && kind !== DURABLE_OBJECT) {
      refuse(`the binding SCHEDULES is ${kind}, but slotwise reads its Durable Object namespace as env.SCHEDULES`)
    }
    if (name === BINDING.metrics && kind !== ANALYTICS_ENGINE) {
      refuse(
        `the binding SLOTWISE_METRICS is ${kind}, but slotwise writes its data points to it as an Analytics Engine dataset`,
      )
    }
    if (name === BINDING.adminToken) {
      refuse(`ADMIN_TOKEN is ${kind}, but slotwise reads it as a secret (.dev.vars locally, wrangler secret put)`)
    }
  }
  const schedules = config.durable_objects?.bindings?.find((binding) => binding.name === BINDING.schedules)
  if (schedules?.script_name !== undefined) {
    refuse(`SCHEDULES binds ${schedules.class_name} of the Worker "${schedules.script_name}", not a class of this one`)
  }
  const className = schedules?.class_name ?? STREAM_CLASS
  if (className !== STREAM_CLASS && !declaresStreamClass(entry, className)) {
    refuse(`SCHEDULES binds the class ${className}, which is not slotwise's ScheduleStream`)
  }
  if (schedules === undefined && entry !== undefined && new RegExp(`class\\s+${STREAM_CLASS}\\b`).test(entry)) {
    if (!declaresStreamClass(entry, STREAM_CLASS)) refuse(`the entry has a class ${STREAM_CLASS} of its own`)
  }
  const kvBacked = config.migrations?.find((migration) => migration.new_classes?.includes(className))
  if (kvBacked !== undefined) {
    refuse(`migration ${kvBacked.tag} declares ${className} in new_classes, but a stream keeps its schedules in SQLite`)
  }
  return className
}

/**
 * The additions that give a Worker what slotwise needs: `minify`, the heartbeat's cron beside the Worker's own,
 * the D1 binding DB, the Durable Object binding SCHEDULES and its migration under the next tag, at the top level
 * and in each environment that has these keys of its own (environments.ts). What the config has already is kept
 * and not added twice, so a second run plans nothing.
 */
export function planConfig(file: string, value: ConfigObject, entry: string | undefined): ConfigPlan {
  const config = wranglerConfig(file, value)
  const className = refuseConflicts(file, config, value, entry)
  const edits: ConfigEdit[] = []
  const notes: string[] = []
  if (config.minify === undefined) {
    const what = `${inSyntax(file, "minify", true)} (the 100 KiB gzip budget holds minified)`
    edits.push({ op: "set", key: "minify", value: true, what })
  } else if (!config.minify) {
    notes.push(
      `${file} sets ${inSyntax(file, "minify", false)}: slotwise's admin fits the 100 KiB gzip budget only minified`,
    )
  }
  const top = scopeEdits({ path: [], config, create: true }, className)
  edits.push(...top.filter((edit) => edit.op === "append" && edit.path[0] === "triggers"))
  let database = config.d1_databases?.find((binding) => binding.binding === BINDING.db) as ConfigObject | undefined
  if (database === undefined) {
    const added = newDatabase(config)
    database = added.binding
    const what = `the D1 binding DB (database "${String(database.database_name ?? "")}")`
    edits.push({ op: "append", path: ["d1_databases"], value: database, what })
    if (added.note) notes.push(added.note)
  }
  edits.push(...top.filter((edit) => edit.op === "append" && edit.path[0] !== "triggers"))
  const environments = planEnvironments(file, config, className)
  edits.push(...environments.edits)
  notes.push(...environments.notes)
  const migrationsDir = typeof database.migrations_dir === "string" ? database.migrations_dir : DEFAULT_MIGRATIONS_DIR
  return { edits, migrationsDir, className, database, notes }
}
