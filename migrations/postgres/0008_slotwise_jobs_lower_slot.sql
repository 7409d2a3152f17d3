-- PostgreSQL twin of ../0005_jobs_lower_slot.sql.
ALTER TABLE jobs_leases ADD COLUMN lower_slot BIGINT;
ALTER TABLE jobs_leases ADD COLUMN jump_start BIGINT;
UPDATE jobs_leases SET lower_slot = 0, jump_start = last_slot WHERE last_slot > (floor(extract(epoch FROM now()))::bigint + 3600) * 1000;
