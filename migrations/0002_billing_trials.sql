-- Billing slice: trials that close when due, and usage rolled up every minute.
CREATE TABLE trials (
  id INTEGER PRIMARY KEY,
  account TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  closed_at INTEGER
);
CREATE INDEX trials_open_due ON trials (due_at) WHERE closed_at IS NULL;

CREATE TABLE usage_events (
  id INTEGER PRIMARY KEY,
  account TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  at INTEGER NOT NULL,
  rolled_up_slot INTEGER
);
CREATE INDEX usage_events_pending ON usage_events (at) WHERE rolled_up_slot IS NULL;

CREATE TABLE usage_totals (
  account TEXT PRIMARY KEY,
  quantity INTEGER NOT NULL,
  through_slot INTEGER NOT NULL
);
