// `npx slotwise init` (bin/slotwise.js) and `npx slotwise-migrations` (bin/slotwise-migrations.js): Node only, never
// imported by a Worker's entry, so their parsers (jsonc-parser, toml-eslint-parser, diff) never reach its bundle.

export { init, USAGE } from "./cli.ts"
export { copyMigrations, type MigrationCopy, plannedMigrations, SHIPPED_MIGRATIONS } from "./migrations.ts"
