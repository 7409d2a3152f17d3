-- PostgreSQL twin of ../0012_jobs_keep_unreleased.sql: the same rule, as a row trigger before the update.
CREATE FUNCTION jobs_leases_keep_unreleased() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.holder IS NOT NULL AND NEW.holder IS NOT NULL AND NEW.holder <> OLD.holder
     AND NEW.unreleased_slots IS NOT DISTINCT FROM OLD.unreleased_slots THEN
    NEW.unreleased_slots := substr(CAST(OLD.last_slot AS TEXT) || coalesce(',' || OLD.unreleased_slots, ''), 1, 300);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER jobs_leases_keep_unreleased BEFORE UPDATE OF holder ON jobs_leases
FOR EACH ROW EXECUTE FUNCTION jobs_leases_keep_unreleased();
