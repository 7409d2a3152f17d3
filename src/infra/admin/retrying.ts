import { MAX_DURABLE_DELAY_MS } from "../backoff.ts"
import { TIMED_OUT, within } from "../deadline.ts"
import type { SlotwiseEnv } from "../env.ts"
import { streamRpc } from "../schedules/client/stream-rpc.ts"
import { staleStreams } from "../schedules/directory/stream-directory.ts"
import type { HealthView } from "./answers.ts"

/** Health asks at most this many streams how many schedules they retry. */
export const HEALTH_STREAMS = 24
/** How long health waits for one stream's answer. */
export const HEALTH_STREAM_DEADLINE_MS = 1_000
/** Streams asked at once: the Workers limit on simultaneous outgoing connections. */
const CONCURRENCY = 6

/**
 * Schedules waiting for a retry, counted by the streams that can hold one: a retry waits at most
 * MAX_DURABLE_DELAY_MS, so a retrying stream's recorded alarm is at most that far ahead (the
 * directory's partial index finds them, most overdue first). At most HEALTH_STREAMS are asked,
 * six at a time, each for at most HEALTH_STREAM_DEADLINE_MS.
 */
export async function countRetrying(env: SlotwiseEnv, now: number): Promise<HealthView["retrying"]> {
  const candidates = await staleStreams(env.DB, now + MAX_DURABLE_DELAY_MS + 1, HEALTH_STREAMS + 1)
  const asked = candidates.slice(0, HEALTH_STREAMS).map((entry) => entry.name)
  let schedules = 0
  let unanswered = 0
  let next = 0
  const askNext = async (): Promise<void> => {
    for (let stream = asked[next++]; stream !== undefined; stream = asked[next++]) {
      try {
        const reply = await within(streamRpc(env.SCHEDULES, stream).summary(stream), HEALTH_STREAM_DEADLINE_MS)
        if (reply === TIMED_OUT || !reply.ok) unanswered++
        else schedules += reply.value.retrying
      } catch {
        unanswered++
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, asked.length) }, askNext))
  return {
    schedules,
    streamsAsked: asked.length,
    unanswered,
    complete: candidates.length <= HEALTH_STREAMS && unanswered === 0,
  }
}
