-- Each exclusive job's last run and its recent runs, written by the release that already ends the run
-- (no second write per run): outcome ran, failed or timed-out; times are epoch milliseconds; run_history
-- is a JSON array of the newest runs, oldest first, bounded by the release statement.
ALTER TABLE jobs_leases ADD COLUMN last_run_slot INTEGER;
ALTER TABLE jobs_leases ADD COLUMN last_run_id TEXT;
ALTER TABLE jobs_leases ADD COLUMN last_outcome TEXT;
ALTER TABLE jobs_leases ADD COLUMN last_ms INTEGER;
ALTER TABLE jobs_leases ADD COLUMN last_finished_at INTEGER;
ALTER TABLE jobs_leases ADD COLUMN last_error TEXT;
ALTER TABLE jobs_leases ADD COLUMN last_summary TEXT;
ALTER TABLE jobs_leases ADD COLUMN run_history TEXT NOT NULL DEFAULT '[]';
