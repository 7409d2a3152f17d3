-- The adopter's own table, there before slotwise: one row per nightly report, by its slot.
CREATE TABLE reports (
  slot INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL
);

-- What the adopter's consumer received, by idempotency key.
CREATE TABLE received (
  idempotency_key TEXT PRIMARY KEY,
  payload TEXT NOT NULL
);
