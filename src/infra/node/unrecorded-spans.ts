import { trace } from "@opentelemetry/api"

/** The key under which @opentelemetry/api 1.x keeps its registered globals, one object per process. */
const GLOBAL_API = Symbol.for("opentelemetry.js.api.1")

/** The OpenTelemetry SDK's variables that ask for spans: an OTLP endpoint, or an exporter other than none. */
function askedBy(env: Record<string, string | undefined>): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined
  const exporters = env.OTEL_TRACES_EXPORTER?.split(",").map((name) => name.trim().toLowerCase()) ?? []
  if (exporters.some((name) => name !== "" && name !== "none")) return "OTEL_TRACES_EXPORTER"
  return ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"].find((name) => env[name])
}

/** Whether the tracer provider slotwise's copy of the API answers delegates to a registered one. */
function providerVisible(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown }
  // Not the API's proxy: something registered a provider of its own shape, which is visible by definition.
  if (typeof provider.getDelegateTracer !== "function") return true
  return provider.getDelegateTracer("slotwise") !== undefined
}

/** Why a provider is not visible: one registered through another copy of the API, or none at all. */
function reason(): string {
  const registered = (globalThis as Record<symbol, { version?: unknown; trace?: unknown } | undefined>)[GLOBAL_API]
  if (registered?.trace !== undefined) {
    return `a tracer provider is registered through @opentelemetry/api ${String(registered.version)}, a copy slotwise's @opentelemetry/api cannot read: install one version (npm ls @opentelemetry/api lists one), e.g. the one your SDK accepts`
  }
  return "no OpenTelemetry tracer provider is registered: register the SDK before Container.start (node --import ./tracing.mjs main.js, or at the top of your entry)"
}

/**
 * Spans asked for (an OTLP endpoint or a traces exporter in `env`) that nothing will record, because
 * the global tracer provider slotwise's `@opentelemetry/api` sees is the no-op one: the variable that
 * asks, and why. Undefined when spans are not asked for, or a provider is visible.
 *
 * @example
 * ```ts
 * unrecordedSpans({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })
 * // { askedBy: "OTEL_EXPORTER_OTLP_ENDPOINT", reason: "no OpenTelemetry tracer provider is registered: …" }
 * ```
 */
export function unrecordedSpans(
  env: Record<string, string | undefined>,
): { askedBy: string; reason: string } | undefined {
  const asked = askedBy(env)
  if (asked === undefined || providerVisible()) return undefined
  return { askedBy: asked, reason: reason() }
}
