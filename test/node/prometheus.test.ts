import { readFileSync } from "node:fs"
import path from "node:path"
import type { Client } from "@libsql/client"
import { metrics } from "@opentelemetry/api"
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus"
import { MeterProvider } from "@opentelemetry/sdk-metrics"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../../scripts/dev/ports.ts"
// Imported as an application imports slotwise/node: it installs the OpenTelemetry recorder the runs report to.
import "../../src/infra/node/index.ts"
import { openTelemetryMetrics } from "../../src/infra/node/metrics.ts"
import { createRuntime } from "../../src/infra/node/runtime.ts"
import { Jobs } from "../../src/infra/portable.ts"
import { migratedDatabase } from "./engines.ts"

const root = path.resolve(import.meta.dirname, "../..")
const GUIDE = "docs/admin.md"
const NIGHT = Date.UTC(2026, 10, 30, 3, 0)

/** The guide's paragraph "Metrics out, in the container", up to the next bold paragraph or heading. */
function containerMetricsSection(): string {
  const guide = readFileSync(path.join(root, GUIDE), "utf8")
  const start = guide.indexOf("**Metrics out, in the container.**")
  if (start < 0) throw new Error(`${GUIDE} has no "Metrics out, in the container" paragraph`)
  const end = guide.slice(start + 1).search(/\n(\*\*|#)/)
  return guide.slice(start, end < 0 ? undefined : start + 1 + end)
}

/** Every Prometheus series name the section gives (`slotwise_…`). */
/**
 * Prometheus's histogram_quantile over one job's cumulative buckets, as the server computes it: linear within the
 * bucket that holds the rank; a rank in +Inf answers the highest finite bound.
 */
function quantile(text: string, series: string, job: string, q: number): number {
  const buckets = [...text.matchAll(new RegExp(`^${series}\\{([^}]*)\\} (\\S+)$`, "gm"))]
    .filter((m) => m[1]?.includes(`job="${job}"`))
    .map((m) => ({
      le: Number(/le="([^"]+)"/.exec(m[1] as string)?.[1]?.replace("+Inf", "Infinity")),
      n: Number(m[2]),
    }))
    .sort((a, b) => a.le - b.le)
  const total = buckets.at(-1)?.n ?? 0
  const rank = q * total
  const at = buckets.findIndex((b) => b.n >= rank)
  const bucket = buckets[at] as { le: number; n: number }
  if (bucket.le === Number.POSITIVE_INFINITY) return buckets.at(-2)?.le ?? 0
  const below = buckets[at - 1] ?? { le: 0, n: 0 }
  return below.le + (bucket.le - below.le) * ((rank - below.n) / (bucket.n - below.n))
}

const documentedSeries = (section: string) => [...new Set(section.match(/\bslotwise_[a-z_]+\b/g) ?? [])].sort()

/** The series names of a Prometheus text exposition: each sample line's name, comments skipped. */
const scrapedSeries = (text: string) =>
  [
    ...new Set(
      text
        .split("\n")
        .filter((line) => line !== "" && !line.startsWith("#"))
        .map((line) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? line),
    ),
  ].sort()

describe("docs/admin.md's Prometheus endpoint, set up as written, with the real exporter", () => {
  const section = containerMetricsSection()
  let client: Client
  let provider: MeterProvider | undefined
  let port: number

  beforeAll(async () => {
    client = (await migratedDatabase()).client
    port = await freePort()
  })
  afterAll(async () => {
    await provider?.shutdown()
    metrics.disable()
    client.close()
  })

  it("names the versions this repository installs and tests", () => {
    const installed = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).devDependencies
    const install = /npm install (@opentelemetry\/sdk-metrics@\S+)\s+(@opentelemetry\/exporter-prometheus@\S+?)`/.exec(
      section,
    )
    expect(install?.slice(1)).toEqual([
      `@opentelemetry/sdk-metrics@${installed["@opentelemetry/sdk-metrics"]}`,
      `@opentelemetry/exporter-prometheus@${installed["@opentelemetry/exporter-prometheus"]}`,
    ])
  })

  it("serves every series the guide names, and the guide names every series slotwise writes", async () => {
    // The guide's own line, run as written but on a free local port (9464 may be another checkout's).
    const setup =
      /^metrics\.setGlobalMeterProvider\(.*PrometheusExporter\(\{ host: "0\.0\.0\.0", port: 9464 \}\).*$/m.exec(
        section,
      )?.[0]
    expect(setup, "the guide's setGlobalMeterProvider line").toBeDefined()
    new Function("metrics", "MeterProvider", "PrometheusExporter", (setup as string).replace("9464", String(port)))(
      metrics,
      MeterProvider,
      PrometheusExporter,
    )
    provider = metrics.getMeterProvider() as MeterProvider
    expect(provider).toBeInstanceOf(MeterProvider)

    let fail = false
    const job = Jobs.make({
      name: "metrics.prometheus-nightly",
      cron: "0 3 * * *",
      exclusive: true,
      timeout: "1 minute",
      run: () => {
        if (fail) throw new Error("no luck")
      },
    })
    const at = (slot: number) => createRuntime({ jobs: [job], client, now: () => slot + 1_500 })
    await at(NIGHT).beat(NIGHT)
    fail = true
    // A night without a run, so a missed slot is counted.
    await at(NIGHT + 2 * 86_400_000).beat(NIGHT + 2 * 86_400_000)
    openTelemetryMetrics().batch({ stream: "tenant-7", delivered: 2, retried: 1, failed: 0, late: [5, 40] })
    // A long job: 12 minutes, within the 15 a job's timeout may be.
    openTelemetryMetrics().run({
      job: "metrics.long",
      slot: NIGHT,
      outcome: "ran",
      ms: 12 * 60_000,
      lateMs: 2 * 3_600_000,
      missed: 0,
    })

    // The exporter listens once its server is up: bounded, as every wait is.
    let text = ""
    for (let tries = 0; tries < 50 && text === ""; tries++) {
      text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (answer) => answer.text(),
        () => new Promise<string>((resolve) => setTimeout(() => resolve(""), 100)),
      )
    }
    const served = scrapedSeries(text).filter((name) => name.startsWith("slotwise_"))
    const documented = documentedSeries(section)
    // What slotwise writes, as the exporter names it (no unit suffix on the histograms).
    expect(served).toEqual([
      "slotwise_deliveries_total",
      "slotwise_delivery_lateness_bucket",
      "slotwise_delivery_lateness_count",
      "slotwise_delivery_lateness_sum",
      "slotwise_job_duration_bucket",
      "slotwise_job_duration_count",
      "slotwise_job_duration_sum",
      "slotwise_job_lateness_bucket",
      "slotwise_job_lateness_count",
      "slotwise_job_lateness_sum",
      "slotwise_job_missed_slots_total",
      "slotwise_job_runs_total",
    ])
    expect(documented).toEqual(served)
    expect(text).toMatch(/^slotwise_job_runs_total\{job="metrics\.prometheus-nightly",outcome="failed",[^}]*\} 1$/m)
    expect(text).toMatch(/^slotwise_job_missed_slots_total\{job="metrics\.prometheus-nightly",[^}]*\} 1$/m)
    expect(text).toMatch(/^slotwise_deliveries_total\{stream="tenant-7",outcome="retried",[^}]*\} 1$/m)
    // The guide's histogram_quantile(0.99, …) over the long job's buckets lands in the bucket that holds 12 minutes,
    // not at the highest finite bound (the SDK's default 10 s); its lateness of 2 hours likewise.
    expect(quantile(text, "slotwise_job_duration_bucket", "metrics.long", 0.99)).toBeGreaterThan(10 * 60_000)
    expect(quantile(text, "slotwise_job_duration_bucket", "metrics.long", 0.99)).toBeLessThanOrEqual(15 * 60_000)
    expect(quantile(text, "slotwise_job_lateness_bucket", "metrics.long", 0.5)).toBeGreaterThan(60 * 60_000)
  })
})
