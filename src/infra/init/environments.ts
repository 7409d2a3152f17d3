import { BINDING } from "./bindings.ts"
import { type WranglerConfig, wranglerConfig } from "./config.ts"
import { newDatabase } from "./database-binding.ts"
import { type ConfigEdit, isObject } from "./edits.ts"
import { InitRefusal } from "./errors.ts"
import { scopeEdits } from "./scope-edits.ts"

/** What init adds in the environments, and what it cannot add there (a database only the user can name). */
export interface EnvironmentsPlan {
  edits: ConfigEdit[]
  notes: string[]
}

/**
 * slotwise in each environment (`env.<name>`): wrangler gives an environment that has `triggers` or `migrations` of
 * its own those instead of the top level's, and never inherits `d1_databases` or `durable_objects`. So an
 * environment's own crons get the heartbeat's, its own migrations ScheduleStream's, its Durable Objects SCHEDULES
 * (added where it has none: no id is needed), and its own D1 list DB, bound to the database the environment already
 * binds. An environment with a D1 list and no database in it is refused, naming each; one without a D1 list is
 * named in a note with the lines to add (its database is the user's to create), until it has DB.
 */
export function planEnvironments(file: string, config: WranglerConfig, className: string): EnvironmentsPlan {
  const edits: ConfigEdit[] = []
  const notes: string[] = []
  const refused: string[] = []
  for (const [name, value] of Object.entries(config.env ?? {})) {
    if (!isObject(value)) continue
    const path = ["env", name]
    const env: WranglerConfig = wranglerConfig(`${file}: env.${name}`, value)
    const withObjects: WranglerConfig = { ...env, durable_objects: env.durable_objects ?? {} }
    edits.push(...scopeEdits({ path, config: withObjects, create: false }, className))
    const databases = env.d1_databases
    if (databases?.some((binding) => binding.binding === BINDING.db)) continue
    const [own] = databases ?? []
    if (databases === undefined) {
      notes.push(
        `env.${name} in ${file} has no d1_databases, which wrangler does not inherit: give it the D1 binding DB ` +
          "with that environment's own database (npx wrangler d1 create), as at the top",
      )
      continue
    }
    if (own === undefined || (own.database_name === undefined && own.database_id === undefined)) {
      refused.push(`env.${name}.d1_databases`)
      continue
    }
    const { binding } = newDatabase(env)
    const what = `the D1 binding DB in env.${name} (the database ${own.binding} binds there)`
    edits.push({ op: "append", path: [...path, "d1_databases"], value: binding, what })
  }
  if (refused.length > 0) {
    throw new InitRefusal(
      `${file}: ${refused.join(", ")}: no database to bind DB to (wrangler does not inherit d1_databases); ` +
        "add DB with that environment's database; init changed nothing",
    )
  }
  return { edits, notes }
}
