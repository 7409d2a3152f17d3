/**
 * `slotwise/node`: the container profile. A Node server process serves the same app and fires the
 * same jobs as the Worker, on SQLite through libSQL; several replicas may share the database.
 * Importing it makes OpenTelemetry (`@opentelemetry/api`) the tracer of job runs.
 */
import { useTracer } from "../tracing/index.ts"
import { SHUTDOWN_DEADLINE_MS, startContainer } from "./container.ts"
import { openTelemetryTracer } from "./tracer.ts"

export type { Container as RunningContainer, ContainerOptions } from "./container.ts"
export { d1OverLibsql } from "./d1.ts"
export { BUSY_TIMEOUT_MS, DatabaseUrlError, DEFAULT_DATABASE_URL, openDatabase } from "./database.ts"
export { applyMigrations, MigrationsError } from "./migrations.ts"
export { type MinuteTimer, startMinuteTimer } from "./minute-timer.ts"
export { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.ts"
export type { FetchApp } from "./server.ts"
export { type ContainerSettings, containerSettings, SettingsError } from "./settings.ts"
export { openTelemetryTracer, SHUTDOWN_DEADLINE_MS }

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

// Spans of job runs go to whatever OpenTelemetry SDK the application registers (none: no-op).
useTracer(openTelemetryTracer())
