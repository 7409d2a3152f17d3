import { drizzle } from "drizzle-orm/d1"

/** A drizzle client over a D1 binding; cheap, so built per use rather than cached. */
export const database = (d1: D1Database) => drizzle(d1)

export type Database = ReturnType<typeof database>
