-- Each stream's alarm time as it last recorded it (NULL: nothing due, or not yet recorded).
-- The watchdog reads the few whose time is well past; the partial index serves that with no scan or sort.
ALTER TABLE schedule_streams ADD COLUMN next_eligible_at INTEGER;
CREATE INDEX schedule_streams_next_eligible ON schedule_streams (next_eligible_at) WHERE next_eligible_at IS NOT NULL;
