-- PostgreSQL twin of ../0009_jobs_hour_fold.sql. json_extract(value, '$.key') is SQLite's: this is a function of
-- the same name and meaning for the one form the batched claim uses (a json object's member, as text), so
-- that it is one SQL text on both, with json_each (PostgreSQL's own, over an object).
CREATE OR REPLACE FUNCTION json_extract(value json, path text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF path !~ '^\$\.[A-Za-z_][A-Za-z0-9_]*$' THEN
    RAISE EXCEPTION 'json_extract(value, %): only a member path ''$.name'' is defined here', path;
  END IF;
  RETURN value ->> substr(path, 3);
END
$$;
ALTER TABLE jobs_leases ADD COLUMN hour_start BIGINT;
ALTER TABLE jobs_leases ADD COLUMN hour_runs TEXT;
ALTER TABLE jobs_leases ADD COLUMN hour_max_ms BIGINT;
