-- PostgreSQL twin of ../0012_jobs_keep_unreleased.sql: the same rule, as a row trigger before the update.
ALTER TABLE jobs_leases ADD COLUMN held_lower_slot BIGINT;
UPDATE jobs_leases SET held_lower_slot = lower_slot,
  unreleased_slots = CAST(lower_slot AS TEXT) || coalesce(',' || unreleased_slots, '')
WHERE holder IS NOT NULL AND lower_slot < last_slot AND lease_until < last_slot;
CREATE FUNCTION jobs_leases_keep_unreleased() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kept text := NEW.unreleased_slots;
  held text := CAST(OLD.held_lower_slot AS TEXT);
BEGIN
  -- A clock-jump claim of a slot whose hour already has its entry is refused, as today's claim refuses it (its
  -- hour read only for such a claim).
  IF NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot AND NEW.lower_slot IS DISTINCT FROM OLD.lower_slot THEN
    IF (',' || coalesce((SELECT runs FROM jobs_run_hours
          WHERE job = NEW.name AND hour = NEW.lower_slot - NEW.lower_slot % 3600000), '')
        || CASE WHEN OLD.hour_start = NEW.lower_slot - NEW.lower_slot % 3600000
           THEN coalesce(',' || OLD.hour_runs, '') ELSE '' END)
       LIKE '%,' || CAST(NEW.lower_slot % 3600000 / 60000 AS TEXT) || ':%' THEN
      RETURN NULL;
    END IF;
  END IF;
  IF OLD.holder IS NOT NULL AND NEW.holder IS DISTINCT FROM OLD.holder
     AND (NEW.holder IS NOT NULL OR NEW.unreleased_slots IS DISTINCT FROM OLD.unreleased_slots) THEN
    IF held IS NOT NULL THEN
      kept := substr(OLD.unreleased_slots, 1, 300);
    ELSIF NEW.unreleased_slots IS NOT DISTINCT FROM OLD.unreleased_slots THEN
      kept := substr(CAST(OLD.last_slot AS TEXT) || coalesce(',' || OLD.unreleased_slots, ''), 1, 300);
    END IF;
  ELSIF held IS NOT NULL AND NEW.holder IS NULL THEN
    kept := CASE WHEN OLD.unreleased_slots = held THEN NULL
      WHEN OLD.unreleased_slots LIKE held || ',%' THEN substr(OLD.unreleased_slots, length(held) + 2)
      ELSE OLD.unreleased_slots END;
  END IF;
  NEW.held_lower_slot := NULL;
  IF NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot AND NEW.lower_slot IS DISTINCT FROM OLD.lower_slot THEN
    kept := CAST(NEW.lower_slot AS TEXT) || coalesce(',' || kept, '');
    NEW.held_lower_slot := NEW.lower_slot;
  END IF;
  NEW.unreleased_slots := kept;
  RETURN NEW;
END $$;
CREATE TRIGGER jobs_leases_keep_unreleased BEFORE UPDATE OF holder ON jobs_leases
FOR EACH ROW EXECUTE FUNCTION jobs_leases_keep_unreleased();
