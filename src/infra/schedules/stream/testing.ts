import type { SlotwiseEnv } from "../../env.ts"
import { ScheduleStream } from "./schedule-stream.ts"
import { type StreamSeams, withSeams } from "./seams.ts"
import type { ScheduleStreamOptions } from "./stream-options.ts"

/**
 * Tests only (dependency-cruiser keeps it to test/ and scripts/; no entry exports it): a stream
 * class built with the seams no Worker may pass, whose objects each own a clock a test sets, and
 * whose methods reach the internals a test inspects or breaks.
 */
export interface TestStreamOptions extends ScheduleStreamOptions, StreamSeams {}

/** A clock a test owns: real time until `now` is set, then frozen there until it is set again. */
export class TestClock {
  now: number | undefined
  readonly read = (): number => this.now ?? Date.now()
}

/** The class of a test's streams; `options.clock`, when given, stands instead of each object's own clock. */
export function testStreamClass(options: TestStreamOptions) {
  const { yieldAfterMs, recorder, fenceRow, ...streamOptions } = options
  const seams: StreamSeams = { yieldAfterMs, recorder, fenceRow }
  return class TestScheduleStream extends ScheduleStream {
    readonly time: TestClock

    constructor(ctx: DurableObjectState, env: SlotwiseEnv) {
      const time = new TestClock()
      super(ctx, env, withSeams({ ...streamOptions, clock: streamOptions.clock ?? time.read }, seams))
      this.time = time
    }

    /** This object's time from now on (undefined: real time again). */
    setNow(now: number | undefined): void {
      this.time.now = now
    }

    /** Points the stream's D1 directory writes at `db` (the recorder reads env.DB at each write). */
    useDatabase(db: D1Database): void {
      this.env = { ...this.env, DB: db }
    }

    /** The stream's SQL, to spy on or to read a plan from. */
    storeForTests() {
      return this.store
    }

    /** The delivery loop, to count its ticks. */
    tickerForTests() {
      return this.ticker
    }
  }
}

export type TestScheduleStream = InstanceType<ReturnType<typeof testStreamClass>>
