-- A replica still on an earlier release (0.2.0 or 0.1.0, during a gradual deployment) claims without keeping an
-- unreleased slot: when its claim takes the lease from a holder that never released it (that run's release failed
-- or never came), this keeps the holder's slot as today's claim does (jobs/protocol/slot-claim.ts, UNRELEASED), so
-- that slot is never said taken again. Today's claim writes unreleased_slots itself, so this leaves it alone.
-- 0.1.0's clock-jump claim holds a slot below last_slot (its lower_slot) and leaves last_slot as it was: that
-- slot is kept from the claim on (held_lower_slot names it while its holder holds the lease), since a later slot
-- already stands above it; its holder's own release takes it out again, and whatever else takes that lease keeps
-- it, not last_slot.
ALTER TABLE jobs_leases ADD COLUMN held_lower_slot INTEGER;
-- Such a lease held before this migration: only a clock-jump claim ends its lease before last_slot (any other, after its slot).
UPDATE jobs_leases SET held_lower_slot = lower_slot,
  unreleased_slots = CAST(lower_slot AS TEXT) || coalesce(',' || unreleased_slots, '')
WHERE holder IS NOT NULL AND lower_slot < last_slot AND lease_until < last_slot;
CREATE TRIGGER jobs_leases_keep_unreleased AFTER UPDATE OF holder ON jobs_leases
FOR EACH ROW WHEN OLD.held_lower_slot IS NOT NULL
  OR (NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot AND NEW.lower_slot IS NOT OLD.lower_slot)
  OR (OLD.holder IS NOT NULL AND NEW.holder IS NOT NULL AND NEW.holder <> OLD.holder
      AND NEW.unreleased_slots IS OLD.unreleased_slots)
BEGIN
  UPDATE jobs_leases SET held_lower_slot = NULL, unreleased_slots = CASE
    -- The lease taken from its holder: a clock-jump claim kept its slot already; any other holder held last_slot.
    WHEN OLD.holder IS NOT NULL AND NEW.holder IS NOT OLD.holder
      AND (NEW.holder IS NOT NULL OR NEW.unreleased_slots IS NOT OLD.unreleased_slots)
    THEN CASE WHEN OLD.held_lower_slot IS NOT NULL THEN substr(OLD.unreleased_slots, 1, 300)
      WHEN NEW.unreleased_slots IS OLD.unreleased_slots
      THEN substr(CAST(OLD.last_slot AS TEXT) || coalesce(',' || OLD.unreleased_slots, ''), 1, 300)
      ELSE NEW.unreleased_slots END
    -- The holder of a clock-jump claim released it: its slot is recorded, no longer kept.
    WHEN OLD.held_lower_slot IS NOT NULL AND NEW.holder IS NULL
    THEN CASE WHEN OLD.unreleased_slots = CAST(OLD.held_lower_slot AS TEXT) THEN NULL
      WHEN OLD.unreleased_slots LIKE CAST(OLD.held_lower_slot AS TEXT) || ',%'
      THEN substr(OLD.unreleased_slots, length(CAST(OLD.held_lower_slot AS TEXT)) + 2)
      ELSE OLD.unreleased_slots END
    ELSE NEW.unreleased_slots END
  WHERE name = NEW.name;
  -- A clock-jump claim: its slot kept from now on, past the cut until its lease is taken, so that its release
  -- gives back the slots kept before it.
  UPDATE jobs_leases SET held_lower_slot = NEW.lower_slot,
    unreleased_slots = CAST(NEW.lower_slot AS TEXT) || coalesce(',' || unreleased_slots, '')
  WHERE name = NEW.name AND NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot
    AND NEW.lower_slot IS NOT OLD.lower_slot;
END;
-- A clock-jump claim of a slot whose hour already has its entry (a run, or today's skip saying it taken by the
-- later slot) is refused, as today's claim refuses it: that slot has its one outcome.
-- OF lower_slot, which only 0.1.0's claim sets: a BEFORE trigger that fires reads its row again, and today's
-- claims must not pay that read.
CREATE TRIGGER jobs_leases_refuse_said_lower BEFORE UPDATE OF lower_slot ON jobs_leases
FOR EACH ROW WHEN NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot AND NEW.lower_slot IS NOT OLD.lower_slot
  AND (',' || coalesce((SELECT runs FROM jobs_run_hours
         WHERE job = NEW.name AND hour = NEW.lower_slot - NEW.lower_slot % 3600000), '')
       || CASE WHEN OLD.hour_start = NEW.lower_slot - NEW.lower_slot % 3600000
          THEN coalesce(',' || OLD.hour_runs, '') ELSE '' END)
      LIKE '%,' || CAST(NEW.lower_slot % 3600000 / 60000 AS TEXT) || ':%'
BEGIN
  SELECT RAISE(IGNORE);
END;
