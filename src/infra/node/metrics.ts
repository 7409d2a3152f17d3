import { type Counter, type Histogram, type MeterProvider, metrics } from "@opentelemetry/api"
import type { MetricsRecorder } from "../metrics/index.ts"

interface Instruments {
  provider: MeterProvider
  runs: Counter
  runDuration: Histogram
  runLateness: Histogram
  missed: Counter
  deliveries: Counter
  deliveryLateness: Histogram
}

const SECOND = 1_000
const MINUTE = 60 * SECOND
/**
 * Run durations' bucket bounds (ms): up to 15 minutes, the longest timeout a job may declare (jobs/contract/definition.ts), so
 * a quantile of a long job is read from a bucket that holds it (the SDK's default buckets stop at 10 s).
 */
export const DURATION_BOUNDS = [
  5,
  10,
  25,
  50,
  100,
  250,
  500,
  SECOND,
  2.5 * SECOND,
  5 * SECOND,
  10 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
]
/** Lateness's bounds (ms): a run's or a delivery's, up to a day (a stream that was down, a lease held long). */
export const LATENESS_BOUNDS = [...DURATION_BOUNDS, 30 * MINUTE, 60 * MINUTE, 6 * 60 * MINUTE, 24 * 60 * MINUTE]

function instrumentsOf(provider: MeterProvider, name: string): Instruments {
  const meter = provider.getMeter(name)
  const ms = { unit: "ms" }
  const timed = { ...ms, advice: { explicitBucketBoundaries: DURATION_BOUNDS } }
  const late = { ...ms, advice: { explicitBucketBoundaries: LATENESS_BOUNDS } }
  return {
    provider,
    runs: meter.createCounter("slotwise.job.runs", { description: "Job runs, by job and outcome" }),
    runDuration: meter.createHistogram("slotwise.job.duration", { ...timed, description: "How long each run took" }),
    runLateness: meter.createHistogram("slotwise.job.lateness", {
      ...late,
      description: "A run's start less its slot",
    }),
    missed: meter.createCounter("slotwise.job.missed_slots", {
      description: "Slots the cron named that no run took, counted when the job's next run ends",
    }),
    deliveries: meter.createCounter("slotwise.deliveries", {
      description: "Settled delivery attempts, by stream and outcome (delivered, retried, failed)",
    }),
    deliveryLateness: meter.createHistogram("slotwise.delivery.lateness", {
      ...late,
      description: "A delivery's time less its due time",
    }),
  }
}

/**
 * Job runs and deliveries as OpenTelemetry metrics through `@opentelemetry/api`: counters of runs
 * (`slotwise.job.runs`, by job and outcome), of missed slots and of deliveries (`slotwise.deliveries`,
 * by stream and outcome), histograms of run duration and lateness and of delivery lateness, in ms. A
 * no-op until the application registers a meter provider; the provider is looked up at each
 * measure, so one registered later is used (its instruments are made once for it).
 *
 * @example
 * ```ts
 * useMetrics(openTelemetryMetrics()) // what slotwise/node installs
 * ```
 */
export function openTelemetryMetrics(name = "slotwise"): MetricsRecorder {
  let current: Instruments | undefined
  const instruments = () => {
    const provider = metrics.getMeterProvider()
    if (current?.provider !== provider) current = instrumentsOf(provider, name)
    return current
  }
  return {
    run({ job, outcome, ms, lateMs, missed }) {
      const i = instruments()
      i.runs.add(1, { job, outcome })
      i.runDuration.record(ms, { job, outcome })
      i.runLateness.record(lateMs, { job })
      if (missed > 0) i.missed.add(missed, { job })
    },
    batch({ stream, delivered, retried, failed, late }) {
      const i = instruments()
      for (const [outcome, count] of [
        ["delivered", delivered],
        ["retried", retried],
        ["failed", failed],
      ] as const)
        if (count > 0) i.deliveries.add(count, { stream, outcome })
      for (const ms of late) i.deliveryLateness.record(ms, { stream })
    },
  }
}
