import type { AttributeValue, Exception, SpanLike, Tracer } from "../../src/infra/tracing/index.ts"

/** One span a fake tracer saw: its name, attributes, recorded exceptions and status. */
export interface RecordedSpan {
  name: string
  attributes: Record<string, AttributeValue>
  exceptions: Exception[]
  status?: { code: "ok" | "error"; message?: string }
  ended: boolean
}

/** A tracer that keeps every span it is handed, so a test can read what a run or a delivery wrote. */
export function recordingTracer(): Tracer & { spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = []
  return {
    spans,
    async enterSpan(name, work) {
      const recorded: RecordedSpan = { name, attributes: {}, exceptions: [], ended: false }
      spans.push(recorded)
      const span: SpanLike = {
        setAttribute(key, value) {
          recorded.attributes[key] = value
        },
        recordException(exception) {
          recorded.exceptions.push(exception)
        },
        setStatus(status) {
          recorded.status = status
        },
      }
      try {
        return await work(span)
      } finally {
        recorded.ended = true
      }
    },
  }
}
