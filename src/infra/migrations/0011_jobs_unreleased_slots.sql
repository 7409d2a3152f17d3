-- The slots a job's claims won that no release recorded (a run whose release failed or never came), newest first,
-- comma-separated, at most about 20: a claim that takes the lease from a holder that never released it keeps that
-- holder's slot here, on the row it writes anyway (jobs/slot-claim.ts). So a late queue message or a replica far
-- behind that asks for such a slot is told it was another run's, never "slot taken" a second time. Expand only.
ALTER TABLE jobs_leases ADD COLUMN unreleased_slots TEXT;
