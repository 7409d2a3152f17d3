/**
 * Inserts `total` rows straight into a stream's SQLite, `due` of them due at `dueAt`, each carrying
 * the payload { run, i } the bench consumers expect; ids are `<prefix><i>`. One-shots, or with
 * `everyMs` recurring schedules of that interval.
 */
export function fill(
  sql: SqlStorage,
  run: string,
  total: number,
  due: number,
  dueAt: number,
  prefix = "s",
  everyMs?: number,
) {
  sql.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO schedules (id, consumer, kind, at_ms, interval_ms, payload, state, occurrence, next_at, cadence_at,
                            attempts, created_at, updated_at)
     SELECT ? || printf('%07d', i), 'bench.noop', ?, CASE WHEN ? IS NULL THEN t END, ?,
            json_object('run', ?, 'i', i), 'scheduled', 1, t, t, 0, ?, ?
     FROM (SELECT i, CASE WHEN i <= ? THEN ? ELSE ? + i * 1000 END AS t FROM n)`,
    total,
    prefix,
    everyMs === undefined ? "at" : "every",
    everyMs ?? null,
    everyMs ?? null,
    run,
    dueAt,
    dueAt,
    due,
    dueAt,
    dueAt + 86_400_000,
  )
}
