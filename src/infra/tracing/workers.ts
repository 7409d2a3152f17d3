import { tracing } from "cloudflare:workers"
import type { SpanLike, Tracer } from "./tracer.ts"

/** The part of cloudflare:workers' `tracing` slotwise calls; a test hands in a fake. */
export type WorkersTracing = Pick<Tracing, "enterSpan"> & Partial<Pick<Tracing, "getActiveSpan">>

/**
 * Spans through Workers tracing (`observability.traces.enabled` in wrangler.toml): each a child of
 * the invocation's span, ended when the work settles (enterSpan does that).
 */
export const workersTracer = (workers: WorkersTracing = tracing): Tracer => ({
  enterSpan: (name, work) => {
    // A child of an untraced span is not traced either: entering it would only cost (a span per delivery).
    if (workers.getActiveSpan?.()?.isTraced === false) return work(untraced)
    // An invocation that is not traced records nothing: its attributes are not worth a call each.
    return workers.enterSpan(name, (span) => work(span.isTraced === false ? untraced : span))
  },
})

const untraced: SpanLike = { setAttribute() {}, recordException() {}, setStatus() {} }
