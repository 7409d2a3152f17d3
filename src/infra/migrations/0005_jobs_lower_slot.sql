-- The gap a clock that jumped ahead left below last_slot (seed Decision 5, amended for clocks that jump
-- ahead): every slot strictly between lower_slot and jump_start is unclaimed. A claim more than
-- 2 x lease above last_slot sets lower_slot to last_slot as it was and jump_start to its own slot (the
-- first the clock ahead runs early); each slot claimed in the gap since moves lower_slot up to it.
-- NULL: no jump recorded, nothing below last_slot is claimable.
ALTER TABLE jobs_leases ADD COLUMN lower_slot INTEGER;
ALTER TABLE jobs_leases ADD COLUMN jump_start INTEGER;
-- A last_slot a jumped clock already left more than an hour ahead (the longest lease is 16 minutes)
-- is made reclaimable below itself: where that clock's jump began is not recorded, so the jump is
-- taken to start at last_slot, and the slots it ran early before last_slot may run again on time.
UPDATE jobs_leases SET lower_slot = 0, jump_start = last_slot WHERE last_slot > (CAST(strftime('%s', 'now') AS INTEGER) + 3600) * 1000;
