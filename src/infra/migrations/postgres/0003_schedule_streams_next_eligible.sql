-- PostgreSQL twin of ../0003_schedule_streams_next_eligible.sql.
ALTER TABLE schedule_streams ADD COLUMN next_eligible_at BIGINT;
CREATE INDEX schedule_streams_next_eligible ON schedule_streams (next_eligible_at) WHERE next_eligible_at IS NOT NULL;
