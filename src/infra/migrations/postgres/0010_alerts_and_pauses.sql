-- PostgreSQL twin of ../0010_alerts_and_pauses.sql.
CREATE TABLE jobs_pauses (
  job TEXT NOT NULL,
  paused_at BIGINT NOT NULL,
  resumed_at BIGINT,
  paused_by TEXT,
  reason TEXT NOT NULL,
  resumed_by TEXT,
  PRIMARY KEY (job, paused_at)
);
CREATE UNIQUE INDEX jobs_pauses_open ON jobs_pauses (job) WHERE resumed_at IS NULL;
CREATE TABLE alert_incidents (
  rule TEXT NOT NULL,
  subject TEXT NOT NULL,
  opened_at BIGINT NOT NULL,
  state TEXT NOT NULL,
  sent INTEGER NOT NULL,
  summary TEXT NOT NULL,
  resolved_at BIGINT,
  PRIMARY KEY (rule, subject)
);
