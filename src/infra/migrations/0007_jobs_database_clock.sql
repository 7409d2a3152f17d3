-- The claim takes every time from the database's clock (jobs/claim.ts): lease_until is the database's now
-- plus the lease, and lease_ms beside it is the holder's lease, by which a live lease is judged. A slot past
-- the database's clock is refused, so last_slot never runs ahead of it: lower_slot and jump_start (0005),
-- which kept the slots a claimant's clock ahead left below it, go.
ALTER TABLE jobs_leases ADD COLUMN lease_ms INTEGER;
ALTER TABLE jobs_leases DROP COLUMN lower_slot;
ALTER TABLE jobs_leases DROP COLUMN jump_start;
-- A lease written before, by a claimant's clock, is judged as the longest lease (a 15-minute timeout + 1
-- minute): one ending more than 32 minutes past the database's now is reclaimed at the next slot.
UPDATE jobs_leases SET lease_ms = 960000 WHERE lease_until IS NOT NULL;
-- A last_slot a claimant's clock ahead left past the database's now would refuse every slot until then: it is
-- set back to now, so no slot is lost, and a slot that clock ran early may run once more, on time.
UPDATE jobs_leases SET last_slot = CAST(ROUND(unixepoch('now', 'subsec') * 1000) AS INTEGER)
WHERE last_slot > CAST(ROUND(unixepoch('now', 'subsec') * 1000) AS INTEGER) + 10000;
