-- PostgreSQL twin of ../0004_jobs_run_history.sql.
ALTER TABLE jobs_leases ADD COLUMN last_run_slot BIGINT;
ALTER TABLE jobs_leases ADD COLUMN last_run_id TEXT;
ALTER TABLE jobs_leases ADD COLUMN last_outcome TEXT;
ALTER TABLE jobs_leases ADD COLUMN last_ms BIGINT;
ALTER TABLE jobs_leases ADD COLUMN last_finished_at BIGINT;
ALTER TABLE jobs_leases ADD COLUMN last_error TEXT;
ALTER TABLE jobs_leases ADD COLUMN last_summary TEXT;
ALTER TABLE jobs_leases ADD COLUMN run_history TEXT NOT NULL DEFAULT '[]';
