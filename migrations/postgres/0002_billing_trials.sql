-- PostgreSQL twin of ../0002_billing_trials.sql. drizzle's D1 inserts write NULL for an unset INTEGER PRIMARY KEY,
-- which SQLite turns into the next rowid: slotwise_next_id does the same from the table's sequence.
CREATE FUNCTION slotwise_next_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id IS NULL THEN NEW.id := nextval(TG_ARGV[0]); END IF;
  RETURN NEW;
END $$;

CREATE TABLE trials (
  id BIGINT PRIMARY KEY,
  account TEXT NOT NULL,
  due_at BIGINT NOT NULL,
  closed_at BIGINT
);
CREATE SEQUENCE trials_id OWNED BY trials.id;
CREATE TRIGGER trials_id BEFORE INSERT ON trials FOR EACH ROW EXECUTE FUNCTION slotwise_next_id('trials_id');
CREATE INDEX trials_open_due ON trials (due_at) WHERE closed_at IS NULL;

CREATE TABLE usage_events (
  id BIGINT PRIMARY KEY,
  account TEXT NOT NULL,
  quantity BIGINT NOT NULL,
  at BIGINT NOT NULL,
  rolled_up_slot BIGINT
);
CREATE SEQUENCE usage_events_id OWNED BY usage_events.id;
CREATE TRIGGER usage_events_id BEFORE INSERT ON usage_events FOR EACH ROW EXECUTE FUNCTION slotwise_next_id('usage_events_id');
CREATE INDEX usage_events_pending ON usage_events (at) WHERE rolled_up_slot IS NULL;

CREATE TABLE usage_totals (
  account TEXT PRIMARY KEY,
  quantity BIGINT NOT NULL,
  through_slot BIGINT NOT NULL
);
