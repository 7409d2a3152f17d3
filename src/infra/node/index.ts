/**
 * `slotwise/node`: the container profile. A Node server process serves the same app and fires the
 * same jobs as the Worker, on SQLite through libSQL or on PostgreSQL; several replicas may share the database.
 * Importing it makes OpenTelemetry (`@opentelemetry/api`) the tracer of job runs.
 */
import { useTracer } from "../tracing/index.ts"
import { openTelemetryTracer } from "./tracer.ts"

export type { Container as RunningContainer, ContainerOptions } from "./container.ts"
export * as Container from "./public.ts"
export type { FetchApp } from "./server.ts"

// Spans of job runs go to whatever OpenTelemetry SDK the application registers (none: no-op).
useTracer(openTelemetryTracer())
