-- Billing slice: each account's current usage-webhook schedule id, fresh per subscription so its idempotency keys never repeat.
CREATE TABLE usage_webhooks (
  account TEXT PRIMARY KEY,
  schedule_id TEXT NOT NULL
);
