-- The newest slot claimed below last_slot (seed Decision 5, amended for clocks that jump ahead):
-- last_slot as it was before a claim more than 2 x lease ahead of it, or a slot claimed while last_slot
-- lay more than 2 x lease ahead of the claimant's clock. NULL on a new row: nothing below last_slot.
-- A row written before this column existed gets 0, so a last_slot a jumped clock already left there
-- is reclaimable too.
ALTER TABLE jobs_leases ADD COLUMN lower_slot INTEGER;
UPDATE jobs_leases SET lower_slot = 0;
