-- Exactly-once effects (ctx.once): each key committed in the same D1 batch as its effects, so a redelivery
-- of the key writes nothing. committed_at is epoch milliseconds; its index lets each commit delete the
-- oldest keys past the retention window (30 days) in a bounded batch, never a scan.
CREATE TABLE once_keys (
  key TEXT PRIMARY KEY,
  committed_at INTEGER NOT NULL
);
CREATE INDEX once_keys_committed_at ON once_keys (committed_at);
