import type { SlotwiseEnv } from "../env.ts"
import { describeError, logLine } from "../log.ts"
import { analyticsEngine } from "./analytics-engine.ts"
import { activeMetrics, type BatchMeasure, type MetricsRecorder, type RunMeasure } from "./measure.ts"

let logged = false

/** The recorders of `env`: its SLOTWISE_METRICS dataset, if bound, and the one installed (useMetrics). */
function recordersOf(env: Partial<SlotwiseEnv>): MetricsRecorder[] {
  const dataset = env.SLOTWISE_METRICS
  const active = activeMetrics()
  const recorders = typeof dataset?.writeDataPoint === "function" ? [analyticsEngine(dataset)] : []
  return active ? [...recorders, active] : recorders
}

/** Reports to every recorder of `env`; metrics never fail a run or a delivery: a throw is logged once per isolate. */
function report(env: Partial<SlotwiseEnv>, write: (recorder: MetricsRecorder) => void): void {
  for (const recorder of recordersOf(env)) {
    try {
      write(recorder)
    } catch (error) {
      if (logged) continue
      logged = true
      logLine("error", "slotwise metrics could not be written", { error: describeError(error) })
    }
  }
}

/** True when `env` has a recorder: a measure that costs per delivery is built only then. */
export const measured = (env: Partial<SlotwiseEnv>): boolean => recordersOf(env).length > 0

export const recordRun = (env: Partial<SlotwiseEnv>, measure: RunMeasure) => report(env, (r) => r.run(measure))
export const recordBatch = (env: Partial<SlotwiseEnv>, measure: BatchMeasure) => report(env, (r) => r.batch(measure))
