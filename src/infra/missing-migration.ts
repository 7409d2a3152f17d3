/**
 * What each of the engine's D1 migrations adds that a statement may find missing: a table, a column added to a
 * table that existed before, or (the PostgreSQL twin of 0007) a function. A database error naming one of them means
 * that migration was not applied where this release's code runs (docs/upgrading.md: apply, then deploy).
 * A new migration adds its names here; test/node/missing-migration.test.ts fails until it does.
 */
export const MIGRATION_ADDS: Readonly<Record<string, readonly string[]>> = {
  "0001_jobs_leases": ["jobs_leases"],
  "0002_schedule_streams": ["schedule_streams"],
  "0003_schedule_streams_next_eligible": ["schedule_streams.next_eligible_at"],
  "0004_jobs_run_history": [
    "jobs_leases.last_run_slot",
    "jobs_leases.last_run_id",
    "jobs_leases.last_outcome",
    "jobs_leases.last_ms",
    "jobs_leases.last_finished_at",
    "jobs_leases.last_error",
    "jobs_leases.last_summary",
    "jobs_leases.run_history",
  ],
  "0005_jobs_lower_slot": ["jobs_leases.lower_slot", "jobs_leases.jump_start"],
  "0006_once_keys": ["once_keys"],
  "0007_jobs_database_clock": ["jobs_leases.lease_ms", "unixepoch"],
  "0008_jobs_run_hours": ["jobs_run_hours"],
  "0009_jobs_hour_fold": ["jobs_leases.hour_start", "jobs_leases.hour_runs", "jobs_leases.hour_max_ms", "json_extract"],
  "0010_alerts_and_pauses": ["jobs_pauses", "alert_incidents"],
  "0011_jobs_unreleased_slots": ["jobs_leases.unreleased_slots"],
  "0012_jobs_keep_unreleased": ["jobs_leases.held_lower_slot", "jobs_leases_keep_unreleased"],
}

// SQLite and D1: `no such column: [t.]x`, `no such table: main.x`, `table t has no column named x`; PostgreSQL:
// `column "x" of relation "t" does not exist`, `column t.x does not exist`, `relation "x" does not exist`,
// `function unixepoch(unknown, unknown) does not exist`. Groups: 1 and 2 (SQLite) or 4 and 3 (PostgreSQL) a table and
// its column; 5 or 6 a name, maybe qualified.
const MISSING =
  /table "?(\w+)"? has no column named "?(\w+)"?|column "?(\w+)"? of relation "?(\w+)"? does not exist|no such (?:column|table): ([\w."]+)|(?:column|relation|function) ([\w."]+)(?:\([^)]*\))? does not exist/g

/** Each name a migration adds, table-qualified for a column, and its bare column name too (an error may not qualify it). */
const BY_NAME = new Map(
  Object.entries(MIGRATION_ADDS).flatMap(([migration, names]) =>
    names.flatMap((name) => [[name, migration] as const, [name.slice(name.indexOf(".") + 1), migration] as const]),
  ),
)

/**
 * The engine migration a database error shows missing (`0007_jobs_database_clock`), or undefined: the error names
 * a table, column or function that migration adds. An app's copy of it is `NNNN_slotwise_<name>.sql`.
 *
 * @example
 * ```ts
 * missingMigration("D1_ERROR: table jobs_leases has no column named lease_ms: SQLITE_ERROR") // "0007_jobs_database_clock"
 * ```
 */
export function missingMigration(text: string): string | undefined {
  for (const match of text.matchAll(MISSING)) {
    // A name the error qualifies with its table is looked up whole, so a table of the app's own never matches.
    const [table, column] = match[1] ? [match[1], match[2]] : match[4] ? [match[4], match[3]] : [undefined, undefined]
    const named = (table ? `${table}.${column}` : (match[5] ?? match[6] ?? ""))
      .replaceAll('"', "")
      .replace(/^main\./, "")
    const migration = BY_NAME.get(named)
    if (migration !== undefined) return migration
  }
  return undefined
}

/** `text` with what to do appended when it shows a slotwise migration missing; otherwise `text` as it is. */
export function withMissingMigration(text: string): string {
  const migration = missingMigration(text)
  if (migration === undefined) return text
  return `${text} [slotwise migration ${migration} is not applied to this database (your copy: NNNN_slotwise_${migration.slice(5)}.sql): apply the migrations, then deploy; see docs/upgrading.md]`
}
