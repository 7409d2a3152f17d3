import release from "../compat/0.1.0/release.json" with { type: "json" }

/** The previous release as test/compat/0.1.0/release.json records it: its version, its engine migrations, its stream schema. */
export const PREVIOUS_RELEASE = release

/** How `slotwise-migrations` names an app's copy of an engine migration: NNNN_slotwise_<engine name without its number>. */
const COPY = /^\d+_slotwise_(.+\.sql)$/

/**
 * Whether an app migration belongs to the schema the previous release ran on: the app's own migrations do, and a
 * copy of an engine migration does when the previous release shipped that engine migration. Every migration since
 * (today's, and any a later change adds) is left out, so the schema is the one before today's migrations.
 */
export function inPreviousSchema(appMigration: string): boolean {
  const copied = COPY.exec(appMigration.replace(/^.*\//, ""))?.[1]
  if (copied === undefined) return true
  return PREVIOUS_RELEASE.engineMigrations.some((engine) => engine.replace(/^\d+_/, "") === copied)
}

/** The engine migrations today's code has that the previous release did not ship: the ones a rollout applies. */
export const sinceRelease = (engineMigrations: readonly string[]) =>
  engineMigrations.filter((name) => !PREVIOUS_RELEASE.engineMigrations.includes(name.replace(/^.*\//, "")))
