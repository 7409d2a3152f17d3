-- PostgreSQL twin of ../0001_jobs_leases.sql: epoch milliseconds need BIGINT (SQLite's INTEGER is 64-bit).
CREATE TABLE jobs_leases (
  name TEXT PRIMARY KEY,
  last_slot BIGINT NOT NULL,
  lease_until BIGINT,
  holder TEXT
);
