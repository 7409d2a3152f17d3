import { Schedules } from "../../src/infra/schedules/schedules.ts"

/** A consumer that does nothing, so the benchmark measures the scheduler alone. */
export const noop = Schedules.consumer({ name: "bench.noop", deliver: () => {} })

export const consumers = Schedules.consumers(() => [noop])
