import type { Client } from "@libsql/client"
import { metrics } from "@opentelemetry/api"
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
// Imported as an application imports slotwise/node: it installs the OpenTelemetry recorder the runs report to.
import "../../src/infra/node/index.ts"
import { openTelemetryMetrics } from "../../src/infra/node/metrics.ts"
import { createRuntime } from "../../src/infra/node/runtime.ts"
import { Jobs } from "../../src/infra/portable.ts"
import { migratedDatabase } from "./engines.ts"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const NIGHT = Date.UTC(2026, 10, 30, 3, 0)

/** The real metrics SDK registered as an application registers it: a global meter provider, read on demand. */
function registerSdk() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
  // Exported only when the test flushes it.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })
  const provider = new MeterProvider({ readers: [reader] })
  metrics.setGlobalMeterProvider(provider)
  return {
    provider,
    /** Every metric exported so far, by name. */
    async read(): Promise<Map<string, MetricData>> {
      await reader.forceFlush()
      const all = exporter.getMetrics().flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics))
      return new Map(all.map((metric) => [metric.descriptor.name, metric]))
    },
  }
}

/** A metric's points as { attributes, value }: a sum's value, or a histogram's count and sum. */
function pointsOf(metric: MetricData | undefined) {
  if (!metric) return []
  return metric.dataPoints.map((point) => ({
    attributes: point.attributes,
    value:
      metric.dataPointType === DataPointType.HISTOGRAM
        ? { count: (point.value as { count: number }).count, sum: (point.value as { sum: number }).sum }
        : point.value,
  }))
}

let sdk: ReturnType<typeof registerSdk>
beforeEach(() => {
  sdk = registerSdk()
})
afterEach(async () => {
  await sdk.provider.shutdown()
  metrics.disable()
})

describe("metrics on the container profile, through the OpenTelemetry metrics SDK", () => {
  let client: Client
  beforeAll(async () => {
    client = (await migratedDatabase()).client
  })
  afterAll(() => client.close())

  it("counts each run by outcome, times it, measures its lateness and counts the slots missed before it", async () => {
    let fail = false
    const job = Jobs.make({
      name: "metrics.container-nightly",
      cron: "0 3 * * *",
      exclusive: true,
      timeout: "1 minute",
      run: () => {
        if (fail) throw new Error("no luck")
      },
    })
    // Each run starts 1.5 s into its slot and takes 250 ms.
    const at = (slot: number) => {
      const times = [slot + 1_500, slot + 1_500, slot + 1_750]
      return createRuntime({ jobs: [job], client, now: () => times.shift() ?? slot + 1_750 })
    }
    await at(NIGHT).beat(NIGHT)
    fail = true
    // Two nights without a run, then a run that fails.
    await at(NIGHT + 3 * DAY).beat(NIGHT + 3 * DAY)

    const read = await sdk.read()
    const job_ = { job: job.name }
    expect(pointsOf(read.get("slotwise.job.runs"))).toEqual([
      { attributes: { ...job_, outcome: "ran" }, value: 1 },
      { attributes: { ...job_, outcome: "failed" }, value: 1 },
    ])
    expect(pointsOf(read.get("slotwise.job.duration"))).toEqual([
      { attributes: { ...job_, outcome: "ran" }, value: { count: 1, sum: 250 } },
      { attributes: { ...job_, outcome: "failed" }, value: { count: 1, sum: 250 } },
    ])
    expect(pointsOf(read.get("slotwise.job.lateness"))).toEqual([{ attributes: job_, value: { count: 2, sum: 3_000 } }])
    expect(pointsOf(read.get("slotwise.job.missed_slots"))).toEqual([{ attributes: job_, value: 2 }])
    expect(read.get("slotwise.job.duration")?.descriptor.unit).toBe("ms")
  })
})

describe("the OpenTelemetry recorder of settled batches", () => {
  it("counts deliveries by stream and outcome and records each delivery's lateness", async () => {
    const recorder = openTelemetryMetrics()
    recorder.batch({ stream: "tenant-7", delivered: 3, retried: 2, failed: 0, late: [5, 40, 1_200] })
    recorder.batch({ stream: "tenant-7", delivered: 1, retried: 0, failed: 1, late: [10] })
    const read = await sdk.read()
    expect(pointsOf(read.get("slotwise.deliveries"))).toEqual([
      { attributes: { stream: "tenant-7", outcome: "delivered" }, value: 4 },
      { attributes: { stream: "tenant-7", outcome: "retried" }, value: 2 },
      { attributes: { stream: "tenant-7", outcome: "failed" }, value: 1 },
    ])
    expect(pointsOf(read.get("slotwise.delivery.lateness"))).toEqual([
      { attributes: { stream: "tenant-7" }, value: { count: 4, sum: 1_255 } },
    ])
  })

  it("uses a meter provider registered after it was made, and records nothing before one is", async () => {
    await sdk.provider.shutdown()
    metrics.disable()
    const recorder = openTelemetryMetrics()
    recorder.batch({ stream: "early", delivered: 1, retried: 0, failed: 0, late: [1] })
    sdk = registerSdk()
    recorder.batch({ stream: "late", delivered: 1, retried: 0, failed: 0, late: [1] })
    const read = await sdk.read()
    expect(pointsOf(read.get("slotwise.deliveries")).map((point) => point.attributes.stream)).toEqual(["late"])
  })
})
