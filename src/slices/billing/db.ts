import { drizzle } from "drizzle-orm/d1"

/** The billing tables' drizzle client over the Worker's D1 binding. */
export const database = (d1: D1Database) => drizzle(d1)

export type Database = ReturnType<typeof database>
