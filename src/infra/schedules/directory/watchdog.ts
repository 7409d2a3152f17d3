import { TIMED_OUT, within } from "../../deadline.ts"
import { MINUTE_MS } from "../../duration.ts"
import { type SlotwiseEnv, slotwiseEnv } from "../../env.ts"
import { Jobs } from "../../jobs/index.ts"
import { describeError } from "../../log.ts"
import type { StreamRpc } from "../contract/rpc.ts"
import { recordNextEligible, staleStreams } from "./stream-directory.ts"
import type { WatchSummary } from "./watch-summary.ts"

/** At most this many streams are nudged per run: that many directory rows and RPCs a minute. */
export const WATCHDOG_BATCH = 50
/** A recorded alarm this far past means a lost alarm; above RECORD_SLACK_MS, so a healthy stream never looks stale. */
export const STALE_AFTER_MS = 2 * MINUTE_MS
/** How long the watchdog waits for one nudge; the stream goes on with it regardless. */
export const NUDGE_DEADLINE_MS = 4_000
/** Nudges in flight at once: the Workers limit on simultaneous outgoing connections. */
export const NUDGE_CONCURRENCY = 6
/**
 * A stream whose nudge failed is looked at again this much later: its entry moves behind the
 * streams still waiting, so broken streams (a newer schema, say) never fill every run's batch.
 */
export const FAILED_NUDGE_RECHECK_MS = 10 * MINUTE_MS

export interface WatchReport {
  /** Streams found with a recorded alarm more than STALE_AFTER_MS before `now` (at most WATCHDOG_BATCH). */
  stale: number
  nudged: number
  /** Streams whose nudge was refused, threw, got no answer in time or whose tick failed, with why. */
  failed: Array<{ stream: string; error: string }>
  /** The stream whose recorded alarm is furthest past, and by how much, or null when none is stale. */
  mostOverdue: WatchSummary["mostOverdue"]
}

type Nudgeable = Pick<StreamRpc, "nudge">

/**
 * Finds at most WATCHDOG_BATCH streams whose recorded alarm is long past and nudges each, six
 * at a time, each bounded in time. `now` is the slot; each stream ticks by its own clock. Throws only when the directory cannot be read.
 */
export async function watch(env: SlotwiseEnv, now: number, signal?: AbortSignal): Promise<WatchReport> {
  const stale = await staleStreams(env.DB, now - STALE_AFTER_MS, WATCHDOG_BATCH)
  const [first] = stale
  const mostOverdue = first ? { stream: first.name, lagMs: now - first.nextEligibleAt } : null
  const report: WatchReport = { stale: stale.length, nudged: 0, failed: [], mostOverdue }
  let next = 0
  const nudgeNext = async (): Promise<void> => {
    for (let entry = stale[next++]; entry !== undefined && !signal?.aborted; entry = stale[next++]) {
      const stream = entry.name
      try {
        const stub = env.SCHEDULES.get(env.SCHEDULES.idFromName(stream)) as unknown as Nudgeable
        const reply = await within(stub.nudge(stream), NUDGE_DEADLINE_MS)
        if (reply === TIMED_OUT) report.failed.push({ stream, error: `no answer within ${NUDGE_DEADLINE_MS} ms` })
        else if (!reply.ok) report.failed.push({ stream, error: `${reply.error.code}: ${reply.error.message}` })
        // The stream armed its recovery alarm, yet its tick failed: worth a look.
        else if (reply.value.error !== null) report.failed.push({ stream, error: reply.value.error })
        else report.nudged++
      } catch (error) {
        report.failed.push({ stream, error: describeError(error) })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(NUDGE_CONCURRENCY, stale.length) }, nudgeNext))
  for (const { stream } of report.failed) {
    // A stream that heals records its own alarm over this; a failed write only means a retry next minute.
    await recordNextEligible(env.DB, stream, now + FAILED_NUDGE_RECHECK_MS, now).catch(() => undefined)
  }
  return report
}

/** Re-arms streams whose alarm was lost (a stream keeps one alarm; this notices when it is gone: ARCHITECTURE.md, "the directory and the watchdog"). */
export const watchdog = Jobs.make({
  name: "schedules.alarm-watchdog",
  cron: "* * * * *",
  exclusive: true,
  // Worst case: the 5 s directory read, then 9 rounds of 6 nudges of at most 4 s each.
  timeout: "50 seconds",
  run: async (slot, ctx) => {
    const report = await watch(slotwiseEnv(ctx.env), slot.getTime(), ctx.signal)
    const { stale, nudged, failed, mostOverdue } = report
    const summary: WatchSummary = { overdue: stale, nudged, failed: failed.length, mostOverdue }
    ctx.report({ ...summary })
    ctx.log[stale ? "warn" : "info"]("schedules.watchdog", { stale, nudged, failed: failed.length, failures: failed })
  },
})
