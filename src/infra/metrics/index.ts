export { analyticsEngine, batchPoint, runPoint } from "./analytics-engine.ts"
export {
  activeMetrics,
  type BatchMeasure,
  type MetricsRecorder,
  quantiles,
  type RunMeasure,
  useMetrics,
} from "./measure.ts"
export { measured, recordBatch, recordRun } from "./record.ts"
