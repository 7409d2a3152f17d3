-- One row per exclusive job: the last slot it claimed and who holds it until when.
CREATE TABLE jobs_leases (
  name TEXT PRIMARY KEY,
  last_slot INTEGER NOT NULL,
  lease_until INTEGER,
  holder TEXT
);
