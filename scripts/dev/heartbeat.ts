import { setTimeout as sleep } from "node:timers/promises"
import { describe, say, warn } from "./log.ts"

const MINUTE_MS = 60_000
/** The one Cron Trigger in wrangler.toml. */
export const CRON = "* * * * *"
/** Where Miniflare fires a scheduled event (wrangler still rewrites the legacy /cdn-cgi/handler/scheduled here). */
export const SCHEDULED_PATH = "/cdn-cgi/local/scheduled"
/** The answer waits for scheduled() to finish, and a job may run for up to 15 minutes. */
const BEAT_TIMEOUT_MS = 16 * MINUTE_MS

const minuteOf = (ms: number) => Math.floor(ms / MINUTE_MS) * MINUTE_MS
const label = (minute: number) => new Date(minute).toISOString().replace(".000Z", "Z")

/** Fires the heartbeat for one UTC minute and logs the answer; never throws. */
export async function fireHeartbeat(origin: string, minute: number, signal: AbortSignal): Promise<void> {
  const url = `${origin}${SCHEDULED_PATH}?cron=${encodeURIComponent(CRON)}&time=${minute}`
  try {
    const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(BEAT_TIMEOUT_MS)]) })
    const body = (await res.text()).trim()
    const line = `heartbeat ${label(minute)} fired: HTTP ${res.status}${body ? ` ${body}` : ""}`
    if (res.ok) say(line)
    else warn(line)
  } catch (error) {
    if (!signal.aborted) warn(`heartbeat ${label(minute)} failed: ${describe(error)}`)
  }
}

/**
 * Fires the current minute at once, then each UTC minute boundary, like the Cron Trigger in production:
 * a slow beat does not hold up the next one, and a minute missed (sleep, suspend) is not made up.
 * Resolves after `beats` beats have been answered, or when `signal` aborts.
 */
export async function runHeartbeats(origin: string, beats: number, signal: AbortSignal): Promise<void> {
  const inFlight = new Set<Promise<void>>()
  let minute = minuteOf(Date.now())
  for (let fired = 1; !signal.aborted; fired++) {
    const beat = fireHeartbeat(origin, minute, signal)
    inFlight.add(beat)
    beat.finally(() => inFlight.delete(beat))
    if (fired >= beats) break
    // max(): a timer that wakes a millisecond early must not fire the same minute twice.
    minute = Math.max(minute + MINUTE_MS, minuteOf(Date.now()) + MINUTE_MS)
    await sleep(minute - Date.now(), undefined, { signal }).catch(() => {})
  }
  await Promise.allSettled(inFlight)
}
