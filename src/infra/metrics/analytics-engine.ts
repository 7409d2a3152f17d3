import { type BatchMeasure, type MetricsRecorder, quantiles, type RunMeasure } from "./measure.ts"

/** Analytics Engine's limit on an index, in bytes (names are ASCII). */
const INDEX_MAX = 96

/**
 * A run as one data point, laid out for the SQL API (README, "Metrics"): blob1 "job", blob2 the job,
 * blob3 its outcome (ran, failed, timed-out, skipped); double1 its duration ms, double2 its lateness ms
 * (start minus slot), double3 the slots missed since the job's previous recorded run; index1 the job.
 */
export const runPoint = (m: RunMeasure): AnalyticsEngineDataPoint => ({
  indexes: [m.job.slice(0, INDEX_MAX)],
  blobs: ["job", m.job, m.outcome],
  doubles: [m.ms, m.lateMs, m.missed],
})

/**
 * A settled batch as one data point: blob1 "stream", blob2 the stream, blob3 "batch"; double1 delivered,
 * double2 retried, double3 failed, double4..6 the deliveries' lateness ms (median, p99, max; 0 when none
 * was timed), double7 the deliveries timed (a backfill's are delivered late on purpose, so not); index1 the stream.
 */
export const batchPoint = (m: BatchMeasure): AnalyticsEngineDataPoint => ({
  indexes: [m.stream.slice(0, INDEX_MAX)],
  blobs: ["stream", m.stream, "batch"],
  doubles: [m.delivered, m.retried, m.failed, ...quantiles(m.late, [0.5, 0.99, 1]), m.late.length],
})

/** A recorder writing one data point per run and per settled batch to a Workers Analytics Engine dataset. */
export const analyticsEngine = (dataset: AnalyticsEngineDataset): MetricsRecorder => ({
  run: (measure) => dataset.writeDataPoint(runPoint(measure)),
  batch: (measure) => dataset.writeDataPoint(batchPoint(measure)),
})
