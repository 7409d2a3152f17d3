-- PostgreSQL twin of ../0008_jobs_run_hours.sql.
CREATE TABLE jobs_run_hours (
  job TEXT NOT NULL,
  hour BIGINT NOT NULL,
  ran INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  timed_out INTEGER NOT NULL,
  skipped INTEGER NOT NULL,
  max_ms BIGINT NOT NULL,
  runs TEXT NOT NULL,
  PRIMARY KEY (job, hour)
);
CREATE INDEX jobs_run_hours_hour ON jobs_run_hours (hour);
