-- The claim takes every time from the database's clock (jobs/slot-claim.ts): lease_until is the database's now
-- plus the lease, and lease_ms beside it is the holder's lease, by which a live lease is judged. A slot past
-- the database's clock is refused, so last_slot never runs ahead of it. Expand only: lower_slot and jump_start
-- (0005) stay, since 0.1.0's claim still writes them while a gradual deployment runs it beside this release
-- (docs/upgrading.md); this release's claim neither reads nor writes them, and a later release drops them.
ALTER TABLE jobs_leases ADD COLUMN lease_ms INTEGER;
-- A lease written before, by a claimant's clock, is judged as the longest lease (a 15-minute timeout + 1
-- minute), as the claim judges a row 0.1.0 writes after this without lease_ms: one ending more than 32
-- minutes past the database's now is reclaimed at the next slot.
UPDATE jobs_leases SET lease_ms = 960000 WHERE lease_until IS NOT NULL;
-- A last_slot a claimant's clock ahead left past the database's now would refuse every slot until then: it is
-- set back to now, so no slot is lost, and a slot that clock ran early may run once more, on time. The gap
-- 0.1.0 recorded below it no longer stands, so it is cleared: 0.1.0's claim never reaches below last_slot again.
UPDATE jobs_leases SET last_slot = CAST(ROUND(unixepoch('now', 'subsec') * 1000) AS INTEGER),
  lower_slot = NULL, jump_start = NULL
WHERE last_slot > CAST(ROUND(unixepoch('now', 'subsec') * 1000) AS INTEGER) + 10000;
