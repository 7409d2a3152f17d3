import { parseCron } from "../cron.ts"
import { HEARTBEAT_CRON } from "../jobs/handlers/heartbeat.ts"

export interface MinuteTimer {
  stop(): void
}

/**
 * Calls `fire(scheduledTime)` at every minute boundary the heartbeat's cron names (UTC, asked of
 * croner), in process, until stopped: the container's Cron Trigger. A boundary fires once, even
 * if the wall clock steps back.
 *
 * @example
 * ```ts
 * const timer = startMinuteTimer((scheduledTime) => void runtime.beat(scheduledTime))
 * timer.stop()
 * ```
 */
export function startMinuteTimer(fire: (scheduledTime: number) => void, now: () => number = Date.now): MinuteTimer {
  const heartbeat = parseCron(HEARTBEAT_CRON)
  let last = Number.NEGATIVE_INFINITY
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const arm = () => {
    const next = heartbeat.nextAfter(Math.max(now(), last)) as number
    timer = setTimeout(
      () => {
        if (stopped) return
        last = next
        fire(next)
        arm()
      },
      Math.max(0, next - now()),
    )
  }
  arm()
  return {
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}
