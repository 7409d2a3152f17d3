/**
 * `slotwise/node`: the container profile. A Node server process serves the same app and fires the
 * same jobs as the Worker, on SQLite through libSQL or on PostgreSQL; several replicas may share the database.
 * Importing it makes OpenTelemetry (`@opentelemetry/api`) the tracer of job runs and the recorder of their metrics.
 */
import { useMetrics } from "../metrics/index.ts"
import { useTracer } from "../tracing/index.ts"
import { openTelemetryMetrics } from "./metrics.ts"
import { openTelemetryTracer } from "./tracer.ts"

export type { Container as RunningContainer, ContainerOptions } from "./container.ts"
export * as Container from "./public.ts"
export type { FetchApp } from "./server.ts"

// Spans of job runs go to whatever OpenTelemetry SDK the application registers (none: no-op).
useTracer(openTelemetryTracer())
// Runs counted, timed and their lateness measured through whatever OpenTelemetry meter provider the application registers.
useMetrics(openTelemetryMetrics())
