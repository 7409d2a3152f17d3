import { createApp } from "../../src/app.ts"
import { Jobs, Schedules } from "../../src/infra/index.ts"
import { testStreamClass } from "../../src/infra/schedules/stream/testing.ts"
import { jobs } from "../../src/jobs.ts"
import { alerts } from "../../src/slices/ops/index.ts"
import { consumers } from "./consumers.ts"
import { queuedJobs } from "./queued-jobs.ts"

/**
 * The tests' Worker (vitest.config.ts `main`): the example app as src/isolate.ts builds it, with
 * the scripted test consumers beside the app's, through the same public calls; the stream class is
 * the tests' own (testing.ts), with a clock per object.
 */
export const workerJobs = Jobs.registry([...jobs, Schedules.watchdog, alerts])
export const app = createApp({ jobs: workerJobs, consumers })

/** Each object owns a clock its tests set (`setNow`): the tests' stand-in for `Schedules.durableObject({ consumers, clock })`. */
export class ScheduleStream extends testStreamClass({ consumers }) {}

export { StatementWorkflow } from "../../src/slices/statements/workflow.ts"
/** 0.1.0's ScheduleStream (test/compat/0.1.0/worker.js) on its own binding, SCHEDULES_010: test/compat/rpc-skew.test.ts. */
export { ScheduleStream010 } from "./previous-stream.ts"

export default {
  fetch: app.fetch,
  scheduled: Jobs.heartbeat(workerJobs),
  // The JOBS queue's consumer (vitest.config.ts): the app's jobs and the queue tests' twenty, one message per invocation.
  queue: Jobs.queue(Jobs.registry([...workerJobs, ...queuedJobs])),
} satisfies ExportedHandler<Env>
