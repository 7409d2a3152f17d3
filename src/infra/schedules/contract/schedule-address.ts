/**
 * What a caller may name to read, cancel, resume, trigger, remove or backfill a schedule: a NAME, or the id of a
 * backfill row that 0.2.0 wrote past 128 characters (`<id>~backfill-<run>-<time>` for a parent id of 104 to 128),
 * so that such a row can still be read, cancelled and removed. Every id created now is a NAME (backfill.ts).
 */
export const SCHEDULE_ADDRESS =
  /^(?:(?!\.\.?$)[A-Za-z0-9._~-]{1,128}|[A-Za-z0-9._~-]{1,128}~backfill-\d{1,16}-\d{1,16})$/
