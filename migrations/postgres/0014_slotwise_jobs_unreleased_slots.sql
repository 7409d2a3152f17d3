-- PostgreSQL twin of ../0011_jobs_unreleased_slots.sql.
ALTER TABLE jobs_leases ADD COLUMN unreleased_slots TEXT;
