-- PostgreSQL twin of ../0007_billing_usage_webhooks.sql.
CREATE TABLE usage_webhooks (
  account TEXT PRIMARY KEY,
  schedule_id TEXT NOT NULL
);
