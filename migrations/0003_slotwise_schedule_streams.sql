-- The directory of schedule streams: one row per stream that holds a schedule.
CREATE TABLE schedule_streams (
  name TEXT PRIMARY KEY,
  listed_at INTEGER NOT NULL
);
