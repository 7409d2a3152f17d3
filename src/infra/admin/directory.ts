import { asc, eq, gt } from "drizzle-orm"
import { database, scheduleStreams } from "../db/index.ts"

export interface StreamEntry {
  name: string
  listedAt: number
}

/** One page of the stream directory, by name; the cursor is the last name of the previous page. */
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
