// Packages the docs' blocks import that this repository does not install: their part the blocks use.
declare module "@opentelemetry/exporter-prometheus" {
  import type { MetricReader } from "@opentelemetry/sdk-metrics"
  export class PrometheusExporter extends MetricReader {
    constructor(options?: { host?: string; port?: number; endpoint?: string })
  }
}
