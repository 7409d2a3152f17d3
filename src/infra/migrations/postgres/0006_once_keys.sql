-- PostgreSQL twin of ../0006_once_keys.sql.
CREATE TABLE once_keys (
  key TEXT PRIMARY KEY,
  committed_at BIGINT NOT NULL
);
CREATE INDEX once_keys_committed_at ON once_keys (committed_at);
