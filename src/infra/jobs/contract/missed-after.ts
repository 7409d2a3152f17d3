import { MINUTE_MS } from "../../duration.ts"

/** A slot no run has claimed this long after it began counts as missed (the heartbeat fires within seconds). */
export const MISSED_AFTER_MS = MINUTE_MS
