import { type Span, SpanStatusCode, trace } from "@opentelemetry/api"
import type { SpanLike, Tracer } from "../tracing/index.ts"

const spanLike = (span: Span): SpanLike => ({
  setAttribute: (key, value) => span.setAttribute(key, value),
  recordException: (exception) => span.recordException(exception),
  setStatus: ({ code, message }) =>
    span.setStatus({ code: code === "ok" ? SpanStatusCode.OK : SpanStatusCode.ERROR, message }),
})

/**
 * Spans through `@opentelemetry/api`: a no-op until the application registers an OpenTelemetry
 * SDK (its tracer provider is looked up at each span, so one registered later is used). Each
 * span is a child of the active one and ends when its work settles.
 *
 * @example
 * ```ts
 * useTracer(openTelemetryTracer()) // what slotwise/node installs
 * ```
 */
export const openTelemetryTracer = (name = "slotwise"): Tracer => ({
  enterSpan: (spanName, work) =>
    trace.getTracer(name).startActiveSpan(spanName, async (span) => {
      try {
        return await work(spanLike(span))
      } finally {
        span.end()
      }
    }),
})
