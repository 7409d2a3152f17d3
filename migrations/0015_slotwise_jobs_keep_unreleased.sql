-- A replica still on an earlier release (0.2.0 or 0.1.0, during a gradual deployment) claims without keeping an
-- unreleased slot: when its claim takes the lease from a holder that never released it (that run's release failed
-- or never came), this keeps the holder's slot as today's claim does (jobs/protocol/slot-claim.ts, UNRELEASED), so
-- that slot is never said taken again. Today's claim writes unreleased_slots itself, so this leaves it alone.
CREATE TRIGGER jobs_leases_keep_unreleased AFTER UPDATE OF holder ON jobs_leases
FOR EACH ROW WHEN OLD.holder IS NOT NULL AND NEW.holder IS NOT NULL AND NEW.holder <> OLD.holder
  AND NEW.unreleased_slots IS OLD.unreleased_slots
BEGIN
  UPDATE jobs_leases
  SET unreleased_slots = substr(CAST(OLD.last_slot AS TEXT) || coalesce(',' || OLD.unreleased_slots, ''), 1, 300)
  WHERE name = NEW.name;
END;
