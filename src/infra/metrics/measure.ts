/** One run of a job as the metrics count it (a run refused because another holds its slot is not one). */
export interface RunMeasure {
  job: string
  /** The UTC minute the run is for, epoch ms. */
  slot: number
  outcome: "ran" | "failed" | "timed-out" | "skipped"
  /** How long the run took, ms. */
  ms: number
  /** When it started, less its slot, ms. */
  lateMs: number
  /** Slots the cron named between the job's previous recorded run and this one that no run took. */
  missed: number
}

/** One settled batch of a stream's deliveries (the answers that wrote; a stale one wrote nothing). */
export interface BatchMeasure {
  stream: string
  delivered: number
  retried: number
  failed: number
  /** Each timed delivery's lateness (delivered at minus due at), ms: a backfill's deliveries have none. */
  late: readonly number[]
}

/** Where the measures go: Analytics Engine on Workers (analytics-engine.ts), OpenTelemetry on the container. */
export interface MetricsRecorder {
  run(measure: RunMeasure): void
  batch(measure: BatchMeasure): void
}

let active: MetricsRecorder | undefined

/** Sets the recorder every run and settled batch reports to, besides a Worker's Analytics Engine binding. */
export function useMetrics(recorder: MetricsRecorder | undefined): void {
  active = recorder
}

/** The recorder installed last (`slotwise/node` installs OpenTelemetry's), or undefined. */
export const activeMetrics = (): MetricsRecorder | undefined => active

/** The `qs`-quantiles of `values` (each q in 0..1) by nearest rank, from one sort; 0 each when there are none. */
export function quantiles(values: readonly number[], qs: readonly number[]): number[] {
  if (values.length === 0) return qs.map(() => 0)
  const sorted = [...values].sort((a, b) => a - b)
  return qs.map((q) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] as number)
}
