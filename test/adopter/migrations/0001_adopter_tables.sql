-- The Worker's own tables, there before slotwise: slotwise-migrations numbers its own after this file.
-- One row per report the reports.minutely job wrote, by its slot.
CREATE TABLE reports (
  slot INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL
);

-- What the adopter.echo consumer received, by idempotency key.
CREATE TABLE received (
  idempotency_key TEXT PRIMARY KEY,
  payload TEXT NOT NULL,
  due_at INTEGER NOT NULL
);

-- What the Worker's own nightly trigger (0 3 * * *) wrote, by its scheduled time.
CREATE TABLE exports (
  at INTEGER PRIMARY KEY
);
