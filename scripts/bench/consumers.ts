import { Schedules } from "../../src/infra/index.ts"
import { FAILURES_BEFORE_SUCCESS, markOf, run } from "./record.ts"

/**
 * The stream's consumers under the benchmark (worker.ts builds BenchStream with them).
 * They do what BenchAgent's callbacks do: `bench.noop` records its start and succeeds,
 * `bench.flaky` asks for a retry twice then succeeds.
 */

export const noop = Schedules.consumer({
  name: "bench.noop",
  deliver: (delivery) => {
    const startedAt = Date.now()
    const { run: name, i } = markOf(delivery.payload)
    const dueAt = delivery.dueAt.getTime()
    run(name).add({ i, startedAt, dueAt, exactDueAt: dueAt, ok: true })
  },
})

export const flaky = Schedules.consumer({
  name: "bench.flaky",
  deliver: (delivery) => {
    const startedAt = Date.now()
    const { run: name, i } = markOf(delivery.payload)
    const ok = run(name).attempt(i) > FAILURES_BEFORE_SUCCESS
    const dueAt = delivery.dueAt.getTime()
    run(name).add({ i, startedAt, dueAt, exactDueAt: dueAt, ok })
    return ok ? undefined : Schedules.retry("bench: this attempt fails")
  },
})
