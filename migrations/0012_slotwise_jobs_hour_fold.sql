-- A job's current hour rides on its lease row (jobs/slot-release.ts): each release appends its run to
-- hour_runs (minute:outcome:ms entries, as jobs_run_hours.runs) and keeps the hour's max in hour_max_ms, on
-- the row it already writes; the first release of a later hour flushes hour_start's hour into jobs_run_hours,
-- once. Expand only: jobs_run_hours stays the table of past hours (a release before this one writes it).
ALTER TABLE jobs_leases ADD COLUMN hour_start INTEGER;
ALTER TABLE jobs_leases ADD COLUMN hour_runs TEXT;
ALTER TABLE jobs_leases ADD COLUMN hour_max_ms INTEGER;
