import type { Delivery010 } from "../compat/0.1.0/worker.js"
import { Schedules } from "../compat/0.1.0/worker.js"

/** What 0.1.0's stream delivered, in order: its consumer records each delivery here. */
export const deliveredBy010: Delivery010[] = []

/** 0.1.0's stream's clock: a test sets it (undefined: real time), as 0.1.0's own `clock` option allows. */
export const clock010: { now: number | undefined } = { now: undefined }

/**
 * 0.1.0's ScheduleStream class, built by 0.1.0's own `Schedules.durableObject` with a consumer of 0.1.0's named as
 * the tests' is (test.scripted), so each release's client can name the same consumer on either stream.
 */
export const ScheduleStream010 = Schedules.durableObject({
  consumers: [
    Schedules.consumer({
      name: "test.scripted",
      deliver: (delivery) => {
        deliveredBy010.push(delivery)
      },
    }),
  ],
  clock: () => clock010.now ?? Date.now(),
})
