-- A replica still on an earlier release (0.2.0 or 0.1.0, during a gradual deployment) claims without keeping an
-- unreleased slot: when its claim takes the lease from a holder that never released it (that run's release failed
-- or never came), this keeps the holder's slot as today's claim does (jobs/protocol/slot-claim.ts, UNRELEASED), so
-- that slot is never said taken again. Today's claim writes unreleased_slots itself, so this leaves it alone.
-- 0.1.0's clock-jump claim holds a slot below last_slot (lower_slot) and leaves last_slot as it was: the slot it
-- holds is kept in held_lower_slot until its holder changes, and a claim or an operator's release that takes
-- that lease keeps it, not last_slot.
ALTER TABLE jobs_leases ADD COLUMN held_lower_slot INTEGER;
CREATE TRIGGER jobs_leases_keep_unreleased AFTER UPDATE OF holder ON jobs_leases
FOR EACH ROW WHEN OLD.held_lower_slot IS NOT NULL
  OR (NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot AND NEW.lower_slot IS NOT OLD.lower_slot)
  OR (OLD.holder IS NOT NULL AND NEW.holder IS NOT NULL AND NEW.holder <> OLD.holder
      AND NEW.unreleased_slots IS OLD.unreleased_slots)
BEGIN
  UPDATE jobs_leases
  SET unreleased_slots = CASE
        WHEN OLD.holder IS NOT NULL AND NEW.holder IS NOT OLD.holder
          AND (NEW.holder IS NOT NULL OR NEW.unreleased_slots IS NOT OLD.unreleased_slots)
        THEN substr(CAST(coalesce(OLD.held_lower_slot, OLD.last_slot) AS TEXT) || coalesce(',' || OLD.unreleased_slots, ''), 1, 300)
        ELSE NEW.unreleased_slots END,
      held_lower_slot = CASE WHEN NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot
        AND NEW.lower_slot IS NOT OLD.lower_slot THEN NEW.lower_slot END
  WHERE name = NEW.name;
END;
