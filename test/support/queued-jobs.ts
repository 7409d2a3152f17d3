import { type Job, Jobs } from "../../src/infra/index.ts"

/** Every run of a queued job, in the order they began: the job, the slot it was handed and its run id. */
export const queuedRuns: Array<{ job: string; slot: number; runId: string }> = []

/** Which queued job throws and which runs past its 1 s timeout (ignoring its signal); the others return. */
export const THROWS = "queued.job-00"
export const RUNS_LONG = "queued.job-01"

const queued = (name: string): Job =>
  Jobs.make({
    name,
    cron: "* * * * *",
    exclusive: true,
    timeout: "1 second",
    run: (slot, ctx) => {
      queuedRuns.push({ job: name, slot: slot.getTime(), runId: ctx.runId })
      if (name === THROWS) throw new Error("queued job failed")
      if (name === RUNS_LONG) return new Promise<void>(() => {})
    },
  })

/** Twenty jobs due every minute, which the tests' Worker's queue handler runs beside the app's. */
export const queuedJobs = Jobs.registry(
  Array.from({ length: 20 }, (_, i) => queued(`queued.job-${String(i).padStart(2, "0")}`)),
)
