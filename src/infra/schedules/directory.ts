import { database, scheduleStreams } from "../db/index.ts"
import { TIMED_OUT, within } from "../deadline.ts"

/** How long an upsert waits for the directory before leaving the entry to a later upsert. */
export const DIRECTORY_DEADLINE_MS = 5_000

/** Records that a stream holds schedules (the admin view's list of streams); bounded in time. */
export async function listStream(d1: D1Database, name: string, now: number): Promise<void> {
  const insert = database(d1).insert(scheduleStreams).values({ name, listedAt: now }).onConflictDoNothing()
  if ((await within(Promise.resolve(insert), DIRECTORY_DEADLINE_MS)) === TIMED_OUT) {
    throw new Error(`D1 did not answer within ${DIRECTORY_DEADLINE_MS} ms`)
  }
}
