import { describeError } from "../log.ts"
import { redactUrlSecrets } from "../url-secrets.ts"

/** A span attribute's value, as both Workers tracing and OpenTelemetry accept it. */
export type AttributeValue = string | number | boolean

/** The part of a span slotwise writes: the same on Workers tracing and OpenTelemetry. */
export interface SpanLike {
  setAttribute(key: string, value: AttributeValue): unknown
  recordException(exception: Exception): unknown
  setStatus(status: { code: "ok" | "error"; message?: string }): unknown
}

/** What a span records of something thrown: an Error, or its text. */
export type Exception = { name: string; message: string; stack?: string } | string

/**
 * Where slotwise's spans go: runs `work` inside a span named `name` (a child of whatever span is
 * active) and ends it when the work settles. Each runtime profile installs its own (`useTracer`);
 * tests inject one to observe the spans.
 */
export interface Tracer {
  enterSpan<T>(name: string, work: (span: SpanLike) => Promise<T>): Promise<T>
  /**
   * Ends every span still open with status error and `exception` recorded: a container's drain calls
   * it when its deadline passes, as the process will not wait for that work to end its spans.
   */
  abandonOpenSpans?(exception: Exception): void
  /** Exports the spans ended so far (an OpenTelemetry SDK's forceFlush): a container awaits it before it exits. */
  flush?(): Promise<void>
}

/** Records nothing: the tracer until a runtime profile installs one. */
export const noopTracer: Tracer = {
  enterSpan: (_name, work) => work({ setAttribute() {}, recordException() {}, setStatus() {} }),
}

let active: Tracer = noopTracer

/**
 * Sets the tracer every job run and schedule delivery uses from now on. The `slotwise` (Workers)
 * entry installs Workers tracing and `slotwise/node` OpenTelemetry; call it to send spans elsewhere.
 *
 * @example
 * ```ts
 * useTracer({ enterSpan: (name, work) => myTracer.inSpan(name, work) })
 * ```
 */
export function useTracer(tracer: Tracer): void {
  active = tracer
}

/** The tracer installed last (noopTracer until one is). */
export const activeTracer = (): Tracer => active

/** A thrown value as a span records it, with the secrets of any URL in its message and stack hidden. */
export function exceptionOf(error: unknown): Exception {
  try {
    if (error instanceof Error && typeof error.name === "string" && typeof error.message === "string") {
      const stack = error.stack
      const message = redactUrlSecrets(error.message)
      return typeof stack === "string"
        ? { name: error.name, message, stack: redactUrlSecrets(stack) }
        : { name: error.name, message }
    }
  } catch {
    // a throwing getter or a revoked Proxy: its description below never throws
  }
  return describeError(error)
}
