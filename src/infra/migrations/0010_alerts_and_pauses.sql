-- An operator's pauses and the alerts' open incidents (issue 41). Expand only: two new tables.
-- jobs_pauses: one row per pause of a job, kept after it is resumed (resumed_at set) so the history shows the
-- slots it skipped as paused, not missed; a job is paused while it has a row whose resumed_at is null (at most
-- one, the partial unique index). The heartbeat reads the open pauses once per beat through that index.
CREATE TABLE jobs_pauses (
  job TEXT NOT NULL,
  paused_at INTEGER NOT NULL,
  resumed_at INTEGER,
  paused_by TEXT,
  reason TEXT NOT NULL,
  resumed_by TEXT,
  PRIMARY KEY (job, paused_at)
);
CREATE UNIQUE INDEX jobs_pauses_open ON jobs_pauses (job) WHERE resumed_at IS NULL;
-- alert_incidents: one row per alert rule and subject (a job, a stream, a schedule) while its incident is open
-- or its notices are still owed: state firing or resolved, sent 1 once the state's notice is in the alert stream.
CREATE TABLE alert_incidents (
  rule TEXT NOT NULL,
  subject TEXT NOT NULL,
  opened_at INTEGER NOT NULL,
  state TEXT NOT NULL,
  sent INTEGER NOT NULL,
  summary TEXT NOT NULL,
  resolved_at INTEGER,
  PRIMARY KEY (rule, subject)
);
