-- Each exclusive job's runs per UTC hour, for 30 days: written by the release that already ends each run, in
-- the same D1 batch (no round trip of its own). hour is the hour's first epoch millisecond; runs holds the
-- hour's runs as comma-separated minute:outcome:ms entries (outcome r, f, t or s: ran, failed, timed out,
-- skipped), at most one per minute; the hour index lets each release delete a few of the oldest hours past
-- 30 days, never a scan.
CREATE TABLE jobs_run_hours (
  job TEXT NOT NULL,
  hour INTEGER NOT NULL,
  ran INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  timed_out INTEGER NOT NULL,
  skipped INTEGER NOT NULL,
  max_ms INTEGER NOT NULL,
  runs TEXT NOT NULL,
  PRIMARY KEY (job, hour)
);
CREATE INDEX jobs_run_hours_hour ON jobs_run_hours (hour);
