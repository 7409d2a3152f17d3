import { gt, sql } from "drizzle-orm"
import { database, scheduleStreams } from "../db/index.ts"

/** How long an upsert waits for the directory before leaving the entry to a later upsert. */
export const DIRECTORY_TIMEOUT_MS = 5_000

/** Records that a stream holds schedules (the admin view's list of streams); bounded in time. */
export async function listStream(d1: D1Database, name: string, now: number): Promise<void> {
  let timer: number | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`D1 did not answer within ${DIRECTORY_TIMEOUT_MS} ms`)),
      DIRECTORY_TIMEOUT_MS,
    )
  })
  try {
    await Promise.race([
      database(d1).insert(scheduleStreams).values({ name, listedAt: now }).onConflictDoNothing(),
      timeout,
    ])
  } finally {
    if (timer !== undefined) clearTimeout(timer)
  }
}

/** A page of streams by name, after `cursor`. */
export async function streamsPage(d1: D1Database, limit: number, cursor?: string) {
  const db = database(d1)
  const rows = await db
    .select()
    .from(scheduleStreams)
    .where(cursor === undefined ? sql`1 = 1` : gt(scheduleStreams.name, cursor))
    .orderBy(scheduleStreams.name)
    .limit(limit)
  return { streams: rows, cursor: rows.length === limit ? (rows[rows.length - 1]?.name ?? null) : null }
}
