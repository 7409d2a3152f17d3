/**
 * Stream names and schedule ids: URL-safe, so they travel in admin paths unescaped; "." and ".."
 * are not names, since URL parsing removes them as path segments (even sent as %2e%2e).
 */
export const NAME = /^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/
export const NAME_RULE = 'must match [A-Za-z0-9._~-]{1,128} and not be "." or ".."'
export const MAX_PAYLOAD_BYTES = 64 * 1024
/** Arrays and objects nest at most this deep in a payload. */
export const MAX_PAYLOAD_DEPTH = 64
export const MIN_EVERY_MS = 1_000
/** The furthest ahead a schedule may be set: 10 years. */
export const MAX_HORIZON_MS = 10 * 366 * 86_400_000
export const MAX_ATTEMPTS_LIMIT = 1_000
/** The most occurrences `times` may ask for. */
export const MAX_TIMES = 1_000_000
/** The widest `jitter`: a day. */
export const MAX_JITTER_MS = 86_400_000
/** The most occurrences one backfill delivers (docs/schedules.md, "Backfill"). */
export const MAX_BACKFILL = 1_000
/** A cancel's reason is cut to this many characters. */
export const MAX_NOTE_LENGTH = 1_000
/** A page of schedules or events: 1..LIST_MAX, LIST_DEFAULT when not given. */
export const LIST_DEFAULT = 50
export const LIST_MAX = 500
/** Finished schedules (completed, cancelled, failed) are kept this long after they finished, unless the stream says otherwise. */
export const DEFAULT_RETENTION_MS = 7 * 86_400_000
/** The longest retention window a stream may keep finished schedules for. */
export const MAX_RETENTION_MS = 366 * 86_400_000
