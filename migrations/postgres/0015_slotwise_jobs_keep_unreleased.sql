-- PostgreSQL twin of ../0012_jobs_keep_unreleased.sql: the same rule, as a row trigger before the update.
ALTER TABLE jobs_leases ADD COLUMN held_lower_slot BIGINT;
CREATE FUNCTION jobs_leases_keep_unreleased() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.holder IS NOT NULL AND NEW.holder IS DISTINCT FROM OLD.holder
     AND ((NEW.holder IS NOT NULL AND NEW.unreleased_slots IS NOT DISTINCT FROM OLD.unreleased_slots)
          OR (OLD.held_lower_slot IS NOT NULL AND NEW.unreleased_slots IS DISTINCT FROM OLD.unreleased_slots)) THEN
    NEW.unreleased_slots := substr(CAST(coalesce(OLD.held_lower_slot, OLD.last_slot) AS TEXT)
      || coalesce(',' || OLD.unreleased_slots, ''), 1, 300);
  END IF;
  NEW.held_lower_slot := CASE WHEN NEW.holder IS NOT NULL AND NEW.last_slot = OLD.last_slot
    AND NEW.lower_slot IS DISTINCT FROM OLD.lower_slot THEN NEW.lower_slot END;
  RETURN NEW;
END $$;
CREATE TRIGGER jobs_leases_keep_unreleased BEFORE UPDATE OF holder ON jobs_leases
FOR EACH ROW EXECUTE FUNCTION jobs_leases_keep_unreleased();
