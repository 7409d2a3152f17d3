/**
 * `slotwise/node`: the container profile. A Node server process serves the same app and fires the
 * same jobs as the Worker, on SQLite through libSQL; several replicas may share the database.
 */
import { SHUTDOWN_DEADLINE_MS, startContainer } from "./container.ts"

export type { ContainerOptions, Container as RunningContainer } from "./container.ts"
export { SHUTDOWN_DEADLINE_MS }
export { d1OverLibsql } from "./d1.ts"
export { BUSY_TIMEOUT_MS, DatabaseUrlError, DEFAULT_DATABASE_URL, openDatabase } from "./database.ts"
export { applyMigrations, MigrationsError } from "./migrations.ts"
export { type MinuteTimer, startMinuteTimer } from "./minute-timer.ts"
export { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.ts"
export type { FetchApp } from "./server.ts"
export { type ContainerSettings, containerSettings, SettingsError } from "./settings.ts"

/**
 * The container profile's entry: `Container.start` opens the database, applies the migrations,
 * serves the app and fires the jobs every minute until SIGTERM.
 *
 * @example
 * ```ts
 * import { Container } from "slotwise/node"
 * await Container.start({ app: createApp({ jobs, consumers }), jobs })
 * ```
 */
export const Container = { start: startContainer }

