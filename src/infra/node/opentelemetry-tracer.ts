import { type Span, SpanStatusCode, type TracerProvider, trace } from "@opentelemetry/api"
import type { Exception, SpanLike, Tracer } from "../tracing/index.ts"

/** A span slotwise began, and whether it was ended (by its work settling, or abandoned at shutdown). */
interface OpenSpan {
  span: Span
  ended: boolean
}

// Once ended (abandoned at shutdown), a span takes no more writes: the run going on may still try.
const spanLike = (open: OpenSpan): SpanLike => ({
  setAttribute: (key, value) => open.ended || open.span.setAttribute(key, value),
  recordException: (exception) => open.ended || open.span.recordException(exception),
  setStatus: ({ code, message }) =>
    open.ended || open.span.setStatus({ code: code === "ok" ? SpanStatusCode.OK : SpanStatusCode.ERROR, message }),
})

/** The provider the application registered: the API answers a proxy in front of it. */
function registeredProvider(): TracerProvider & { forceFlush?: () => Promise<void> } {
  const provider = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider }
  return typeof provider.getDelegate === "function" ? provider.getDelegate() : provider
}

/**
 * Spans through `@opentelemetry/api`: a no-op until the application registers an OpenTelemetry
 * SDK (its tracer provider is looked up at each span, so one registered later is used). Each
 * span is a child of the active one and ends when its work settles, or when a container's drain
 * abandons it (status error); `flush` calls the registered provider's forceFlush.
 *
 * @example
 * ```ts
 * useTracer(openTelemetryTracer()) // what slotwise/node installs
 * ```
 */
export function openTelemetryTracer(name = "slotwise"): Tracer {
  const open = new Set<OpenSpan>()
  const end = (entry: OpenSpan) => {
    if (entry.ended) return
    entry.ended = true
    open.delete(entry)
    entry.span.end()
  }
  return {
    enterSpan: (spanName, work) =>
      trace.getTracer(name).startActiveSpan(spanName, async (span) => {
        const entry: OpenSpan = { span, ended: false }
        open.add(entry)
        try {
          return await work(spanLike(entry))
        } finally {
          end(entry)
        }
      }),
    abandonOpenSpans(exception: Exception) {
      for (const entry of open) {
        entry.span.recordException(exception)
        entry.span.setStatus({ code: SpanStatusCode.ERROR, message: "abandoned at shutdown" })
        end(entry)
      }
    },
    async flush() {
      await registeredProvider().forceFlush?.()
    },
  }
}
