import { EVENTS_PER_SCHEDULE, REMOVALS_KEPT } from "../contract/schedule-events.ts"

/** The history's counts, each an INTEGER NOT NULL column (version 5): l0..l15 are the lateness histogram's buckets. */
const HISTORY_COLUMNS = ["delivered", "retried", "failed", "late_max", ...Array.from({ length: 16 }, (_, i) => `l${i}`)]

/** The schema this code knows; a stream whose storage is newer refuses to run. */
export const SCHEMA_VERSION = 8

/** Version 2's event ring had this many slots (a migration's text never changes). */
const RING_SLOTS = 10_000

/** Version 6: each schedule's newest events, oldest first, one JSON array [seq, at, type, data] a line. */
const EVENT_LINES = `
SELECT schedule_id, group_concat(line, char(10) ORDER BY seq) AS lines, max(seq) AS newest FROM (
  SELECT schedule_id, seq, json_array(seq, at, type, json(data)) AS line,
    row_number() OVER (PARTITION BY schedule_id ORDER BY seq DESC) AS age FROM events)
WHERE age <= ${EVENTS_PER_SCHEDULE} GROUP BY schedule_id`

/** Each version's statements, run once in order inside migrate()'s transaction. */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  1: `
CREATE TABLE schedules (
  id TEXT PRIMARY KEY,
  consumer TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('at', 'after', 'every', 'cron')),
  at_ms INTEGER,
  interval_ms INTEGER,
  cron TEXT,
  timezone TEXT,
  payload TEXT NOT NULL,
  max_attempts INTEGER,
  state TEXT NOT NULL CHECK (state IN ('scheduled', 'completed', 'cancelled', 'failed')),
  occurrence INTEGER NOT NULL,
  next_at INTEGER NOT NULL,
  cadence_at INTEGER NOT NULL,
  retry_at INTEGER,
  claim_until INTEGER,
  claim_token TEXT,
  attempts INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  eligible_at INTEGER GENERATED ALWAYS AS (max(next_at, coalesce(retry_at, 0), coalesce(claim_until, 0))) VIRTUAL
) WITHOUT ROWID;
CREATE INDEX schedules_due ON schedules (eligible_at, id) WHERE state = 'scheduled';
CREATE TABLE events (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  schedule_id TEXT NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX events_by_schedule ON events (schedule_id, seq);
`,
  // The event log becomes a ring (see event-log.ts): one row written per event, no pruning, no second index.
  2: `
CREATE TABLE event_ring (
  slot INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL,
  at INTEGER NOT NULL,
  schedule_id TEXT NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL
);
INSERT INTO event_ring (slot, seq, at, schedule_id, type, data)
  SELECT (seq - 1) % ${RING_SLOTS}, seq, at, schedule_id, type, data FROM events
  WHERE seq > (SELECT coalesce(max(seq), 0) FROM events) - ${RING_SLOTS};
DROP TABLE events;
ALTER TABLE event_ring RENAME TO events;
`,
  // Finished rows are deleted after the stream's retention window, oldest first (see retention.ts).
  3: `
ALTER TABLE schedules ADD COLUMN finished_at INTEGER;
UPDATE schedules SET finished_at = updated_at WHERE state != 'scheduled';
CREATE INDEX schedules_finished ON schedules (finished_at, id) WHERE state != 'scheduled';
`,
  // Each row created from now on draws an incarnation for its keys (idempotency-key.ts); a row stored
  // before keeps null, so an occurrence delivered or retrying across the upgrade keeps its key.
  4: `
ALTER TABLE schedules ADD COLUMN incarnation INTEGER;
`,
  // The history of deliveries (see rollup-store.ts): a ring of 1,440 minute rows, one written per settled batch,
  // and a row per hour folded from them; l0..l15 count deliveries per lateness bucket (rollup.ts, LATE_BOUNDS).
  5: ["delivery_minutes (slot INTEGER PRIMARY KEY, minute INTEGER NOT NULL", "delivery_hours (hour INTEGER PRIMARY KEY"]
    .map((table) => `CREATE TABLE ${table}, ${HISTORY_COLUMNS.map((c) => `${c} INTEGER NOT NULL`).join(", ")});`)
    .join("\n"),
  // Rows written per delivery (docs/benchmarks.md, "Every row a delivery writes"): a claim is one record per batch
  // (claims, see ledger.ts) instead of a write to each row; a schedule's events ride on its own row (row-events.ts)
  // instead of a row each; retention finds finished rows through a journal written once per transaction
  // (journal.ts) instead of a second index. Rows, due times and live claims stay as they are: a claim already
  // on a row keeps holding it, as before.
  6: `
ALTER TABLE schedules ADD COLUMN event_lines TEXT NOT NULL DEFAULT '';
ALTER TABLE schedules ADD COLUMN event_seq INTEGER;
ALTER TABLE schedules ADD COLUMN written_seq INTEGER NOT NULL DEFAULT 0;
UPDATE schedules SET event_lines = e.lines, event_seq = e.newest FROM (${EVENT_LINES}) AS e
  WHERE e.schedule_id = schedules.id;
CREATE TABLE removed (seq INTEGER PRIMARY KEY, schedule_id TEXT NOT NULL, event_lines TEXT NOT NULL);
INSERT INTO removed (seq, schedule_id, event_lines) SELECT newest, schedule_id, lines FROM (${EVENT_LINES})
  WHERE schedule_id NOT IN (SELECT id FROM schedules) ORDER BY newest DESC LIMIT ${REMOVALS_KEPT};
INSERT INTO meta (key, value) SELECT 'event_seq', CAST(coalesce(max(seq), 0) AS TEXT) FROM events;
DROP TABLE events;
CREATE TABLE claims (slot INTEGER PRIMARY KEY, seq INTEGER NOT NULL, at INTEGER NOT NULL, entries TEXT NOT NULL);
CREATE TABLE finished (at INTEGER NOT NULL, tag TEXT NOT NULL, ids TEXT NOT NULL, PRIMARY KEY (at, tag)) WITHOUT ROWID;
INSERT INTO finished (at, tag, ids) SELECT finished_at, min(id), group_concat(id, char(10))
  FROM schedules WHERE state != 'scheduled' GROUP BY finished_at;
DROP INDEX schedules_finished;
`,
  // A window, a count, jitter, a cancel's reason and backfilled occurrences (docs/schedules.md): columns only, each
  // null (or 0 delivered) on a row stored before, which so keeps its occurrence, due times, claim and key.
  7: `
ALTER TABLE schedules ADD COLUMN start_at INTEGER;
ALTER TABLE schedules ADD COLUMN end_at INTEGER;
ALTER TABLE schedules ADD COLUMN times INTEGER;
ALTER TABLE schedules ADD COLUMN delivered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE schedules ADD COLUMN jitter_ms INTEGER;
ALTER TABLE schedules ADD COLUMN cancel_reason TEXT;
ALTER TABLE schedules ADD COLUMN backfill_of TEXT;
`,
  // A schedule/set event is written in short (set-line.ts): code of version 7 or older could not read it, so the
  // version moves on. Nothing stored changes: every line written before reads as it did (event-line.ts reads both).
  8: "",
}
