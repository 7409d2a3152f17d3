-- PostgreSQL twin of ../0007_jobs_database_clock.sql. unixepoch('now', 'subsec') is SQLite's (the statement's
-- time in seconds since 1970, to the millisecond or finer): this is a function of the same name and meaning,
-- so that the claim is one SQL text on both. It defines that one call and refuses any other.
CREATE OR REPLACE FUNCTION unixepoch(time_value text, modifier text) RETURNS double precision
LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF time_value IS DISTINCT FROM 'now' OR modifier IS DISTINCT FROM 'subsec' THEN
    RAISE EXCEPTION 'unixepoch(%, %): only unixepoch(''now'', ''subsec'') is defined here', time_value, modifier;
  END IF;
  RETURN extract(epoch FROM statement_timestamp());
END
$$;
ALTER TABLE jobs_leases ADD COLUMN lease_ms BIGINT;
-- lower_slot and jump_start stay, as in the D1 migration: 0.1.0's claim still writes them during a rollout.
UPDATE jobs_leases SET lease_ms = 960000 WHERE lease_until IS NOT NULL;
UPDATE jobs_leases SET last_slot = CAST(ROUND(unixepoch('now', 'subsec') * 1000) AS BIGINT),
  lower_slot = NULL, jump_start = NULL
WHERE last_slot > CAST(ROUND(unixepoch('now', 'subsec') * 1000) AS BIGINT) + 10000;
