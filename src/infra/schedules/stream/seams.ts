import type { Claim } from "./core/claim.ts"
import type { ScheduleRow } from "./row.ts"

/** What a stream records in the D1 directory (directory-recorder.ts); a test may keep a stream to its own storage. */
export interface DirectoryRecorder {
  record(next: number | null, now: number, rewrite?: boolean): Promise<void>
  /** When a failed directory write is due again (null: none failed): the alarm is never later. */
  retryAt(): number | null
}

/** A test's sabotage of the row a fence reads for a claim: proves the simulator's oracle notices a broken fence. */
export type FenceRow = (row: ScheduleRow | undefined, claim: Claim) => ScheduleRow | undefined

/**
 * What only tests change in a stream (testing.ts): never part of ScheduleStreamOptions, so no Worker can
 * pass them. They travel beside the options object the class is built with.
 */
export interface StreamSeams {
  /** How long a tick waits on its deliveries before it yields (default YIELD_AFTER_MS). */
  yieldAfterMs?: number
  /** Replaces the D1 directory recorder. */
  recorder?: DirectoryRecorder
  fenceRow?: FenceRow
}

const attached = new WeakMap<object, StreamSeams>()

/** `options`, with `seams` attached for the stream built from them. */
export function withSeams<T extends object>(options: T, seams: StreamSeams): T {
  attached.set(options, seams)
  return options
}

/** The seams attached to `options`: none, for every class a Worker builds. */
export const seamsOf = (options: object): StreamSeams => attached.get(options) ?? {}
