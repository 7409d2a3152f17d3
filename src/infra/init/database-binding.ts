import { BINDING } from "./bindings.ts"
import type { D1Binding, WranglerConfig } from "./config.ts"
import type { ConfigObject } from "./edits.ts"

/** Where DB's migrations go when the config names no folder: wrangler's default. */
export const DEFAULT_MIGRATIONS_DIR = "migrations"

/** The D1 binding DB adds: the database the Worker already binds (slotwise's tables beside its own), or a new one. */
export function newDatabase(config: WranglerConfig): { binding: ConfigObject; note?: string } {
  const [own] = config.d1_databases ?? []
  if (own === undefined) {
    return {
      binding: {
        binding: BINDING.db,
        database_name: config.name ?? "slotwise",
        migrations_dir: DEFAULT_MIGRATIONS_DIR,
      },
    }
  }
  // Every field but the name: its migrations_table, migrations_pattern, preview_database_id … are the database's,
  // and `wrangler d1 migrations apply DB` must find the migrations the Worker already applied where they are.
  const { binding: _name, ...same } = own as D1Binding & ConfigObject
  return {
    binding: { binding: BINDING.db, ...same },
    note: `DB binds the database ${own.binding} binds, so slotwise's tables are beside the Worker's own`,
  }
}
