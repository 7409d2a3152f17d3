/** A D1 statement prepared on `env.DB`, or a drizzle query over it (anything with `toSQL()`), run as D1 runs it. */
export type OnceStatement = D1PreparedStatement | { toSQL(): { sql: string; params: unknown[] } }

/**
 * What `ctx.once` answers: `applied` when this call committed the key and its effects (`results`, one per
 * statement given, in order); `duplicate` when the key was already committed, by an earlier call or by this
 * one whose answer D1 lost, and nothing was written now.
 */
export type OnceResult = { status: "applied"; results: D1Result[] } | { status: "duplicate" }

/**
 * How long a committed key is kept: longer than any redelivery comes. A lost answer is delivered again
 * within the claim's lease (the consumer's timeout + 30 s, at most 10.5 minutes) and a failing occurrence
 * retries every 60 s at most; 30 days also covers a failed schedule resumed weeks later and a job's item
 * redone by any slot within them (README, "Exactly-once effects on D1").
 */
export const ONCE_RETENTION_MS = 30 * 86_400_000
/** Keys past the window deleted by each commit, oldest first through the committed_at index: more than the one it adds. */
export const ONCE_SWEEP_BATCH = 16
/** An item key's longest length, so a stored key stays a small index entry. */
export const ITEM_KEY_MAX = 512

const INSERT_KEY = "INSERT INTO once_keys (key, committed_at) VALUES (?1, ?2)"
const SWEEP = `DELETE FROM once_keys WHERE key IN (
  SELECT key FROM once_keys WHERE committed_at < ?1 ORDER BY committed_at LIMIT ${ONCE_SWEEP_BATCH})`
const FIND_KEY = "SELECT 1 AS found FROM once_keys WHERE key = ?1"

/** The key a job's item is stored under: a job's name holds no "/" (Jobs.make), so two jobs' items never share one. */
export function jobItemKey(job: string, itemKey: unknown): string {
  if (typeof itemKey !== "string" || itemKey.length === 0 || itemKey.length > ITEM_KEY_MAX) {
    throw new TypeError(`once: itemKey must be a string of 1 to ${ITEM_KEY_MAX} characters`)
  }
  return `job:${job}/${itemKey}`
}

const isD1Statement = (value: object): value is D1PreparedStatement =>
  typeof (value as D1PreparedStatement).bind === "function" && typeof (value as D1PreparedStatement).run === "function"

/** Checks every statement before anything is sent, so bad input writes nothing; a drizzle query becomes a D1 statement. */
export function preparedStatements(db: D1Database, statements: unknown): D1PreparedStatement[] {
  if (!Array.isArray(statements) || statements.length === 0) {
    throw new TypeError("once: statements must be a non-empty array of D1 statements or drizzle queries")
  }
  return statements.map((statement: unknown, i) => {
    if (typeof statement === "object" && statement !== null) {
      if (typeof (statement as { toSQL?: unknown }).toSQL === "function") {
        const { sql, params } = (statement as { toSQL(): { sql: string; params: unknown[] } }).toSQL()
        return db.prepare(sql).bind(...params)
      }
      if (isD1Statement(statement)) return statement
    }
    throw new TypeError(`once: statements[${i}] is neither a D1 prepared statement nor a drizzle query`)
  })
}

/**
 * Commits `key` and the statements' effects in one D1 batch (D1's transaction), all or nothing. The key's
 * plain INSERT comes first: a key already committed fails the batch on its primary key, D1 rolls every
 * statement back, and the key found on a re-read makes that failure "duplicate". Any other failure is thrown
 * as D1 gave it, having written nothing, and is never retried here (a D1 failure is not classified).
 * The same batch deletes up to ONCE_SWEEP_BATCH keys older than the window, so the table stays bounded.
 */
export async function commitOnce(
  db: D1Database,
  key: string,
  statements: readonly OnceStatement[],
  now: number,
): Promise<OnceResult> {
  const effects = preparedStatements(db, statements)
  try {
    const results = await db.batch([
      db.prepare(INSERT_KEY).bind(key, now),
      ...effects,
      db.prepare(SWEEP).bind(now - ONCE_RETENTION_MS),
    ])
    return { status: "applied", results: results.slice(1, 1 + effects.length) }
  } catch (error) {
    // The key's row is the truth: present, its effects committed with it (earlier, or by this batch whose answer was lost).
    const found = await db
      .prepare(FIND_KEY)
      .bind(key)
      .first()
      .catch(() => null)
    if (found !== null) return { status: "duplicate" }
    throw error
  }
}
