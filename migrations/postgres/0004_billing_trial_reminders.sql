-- PostgreSQL twin of ../0004_billing_trial_reminders.sql.
CREATE TABLE trial_reminders (
  idempotency_key TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  trial_id BIGINT NOT NULL,
  sent_at BIGINT NOT NULL
);
