import { asc, eq, gt, lt, sql } from "drizzle-orm"
import { database, scheduleStreams } from "../../db/index.ts"
import { TIMED_OUT, within } from "../../deadline.ts"

/** How long an upsert waits for the directory before leaving the entry to a later upsert. */
export const DIRECTORY_DEADLINE_MS = 5_000

/**
 * Records a stream's alarm time (null: nothing due) for the watchdog, listing the stream if it
 * is not listed yet; bounded in time like listStream.
 */
export async function recordNextEligible(
  d1: D1Database,
  name: string,
  nextEligibleAt: number | null,
  now: number,
): Promise<void> {
  const upsert = database(d1)
    .insert(scheduleStreams)
    .values({ name, listedAt: now, nextEligibleAt })
    .onConflictDoUpdate({ target: scheduleStreams.name, set: { nextEligibleAt: sql`excluded.next_eligible_at` } })
  await bounded(Promise.resolve(upsert))
}

/** Forgets a stream that holds no schedule any more; a later upsert lists it again. Bounded in time. */
export async function forgetStream(d1: D1Database, name: string): Promise<void> {
  await bounded(Promise.resolve(database(d1).delete(scheduleStreams).where(eq(scheduleStreams.name, name))))
}

/**
 * At most `limit` streams whose recorded alarm is before `before`, the most overdue first,
 * through the partial index on next_eligible_at; bounded in time.
 */
export async function staleStreams(
  d1: D1Database,
  before: number,
  limit: number,
): Promise<Array<{ name: string; nextEligibleAt: number }>> {
  const select = database(d1)
    .select({ name: scheduleStreams.name, nextEligibleAt: scheduleStreams.nextEligibleAt })
    .from(scheduleStreams)
    .where(lt(scheduleStreams.nextEligibleAt, before))
    .orderBy(scheduleStreams.nextEligibleAt)
    .limit(limit)
  return (await bounded(Promise.resolve(select))) as Array<{ name: string; nextEligibleAt: number }>
}

export interface StreamEntry {
  name: string
  listedAt: number
}

/** One page of the directory, by name; the cursor is the last name of the previous page. */
export async function streamsPage(d1: D1Database, limit: number, cursor?: string) {
  const rows: StreamEntry[] = await database(d1)
    .select({ name: scheduleStreams.name, listedAt: scheduleStreams.listedAt })
    .from(scheduleStreams)
    .where(cursor === undefined ? undefined : gt(scheduleStreams.name, cursor))
    .orderBy(asc(scheduleStreams.name))
    .limit(limit)
  return { streams: rows, cursor: rows.length === limit ? (rows.at(-1)?.name ?? null) : null }
}

/** True when the stream is in the directory; the admin never wakes (and so creates) an unknown stream's object. */
export async function isListed(d1: D1Database, name: string): Promise<boolean> {
  const rows = await database(d1)
    .select({ name: scheduleStreams.name })
    .from(scheduleStreams)
    .where(eq(scheduleStreams.name, name))
    .limit(1)
  return rows.length === 1
}

async function bounded<T>(work: Promise<T>): Promise<T> {
  const result = await within(work, DIRECTORY_DEADLINE_MS)
  if (result === TIMED_OUT) throw new Error(`D1 did not answer within ${DIRECTORY_DEADLINE_MS} ms`)
  return result
}
