import { gt, sql } from "drizzle-orm"
import { database, scheduleStreams } from "../db/index.ts"

/** Records that a stream holds schedules (the admin view's list of streams). */
export async function listStream(d1: D1Database, name: string, now: number): Promise<void> {
  await database(d1).insert(scheduleStreams).values({ name, listedAt: now }).onConflictDoNothing()
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
