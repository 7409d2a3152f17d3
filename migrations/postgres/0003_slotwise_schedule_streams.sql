-- PostgreSQL twin of ../0002_schedule_streams.sql.
CREATE TABLE schedule_streams (
  name TEXT PRIMARY KEY,
  listed_at BIGINT NOT NULL
);
