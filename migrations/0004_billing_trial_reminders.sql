-- Billing slice: reminders sent, keyed by the delivery's idempotency key so a redelivery sends nothing twice.
CREATE TABLE trial_reminders (
  idempotency_key TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  trial_id INTEGER NOT NULL,
  sent_at INTEGER NOT NULL
);
