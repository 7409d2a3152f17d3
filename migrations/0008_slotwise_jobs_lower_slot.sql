-- The newest slot claimed below last_slot (seed Decision 5, amended for clocks that jump ahead):
-- last_slot as it was before a claim more than 2 x lease ahead of it, then each slot claimed while
-- last_slot lay more than 2 x lease ahead of the claimant's clock. NULL: nothing below last_slot.
ALTER TABLE jobs_leases ADD COLUMN lower_slot INTEGER;
-- A last_slot a jumped clock already left more than an hour ahead (the longest lease is 16 minutes)
-- is made reclaimable: nothing is known below it.
UPDATE jobs_leases SET lower_slot = 0 WHERE last_slot > (CAST(strftime('%s', 'now') AS INTEGER) + 3600) * 1000;
