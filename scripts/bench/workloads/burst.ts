import type { SetupClock } from "../lead.ts"
import { run } from "../record.ts"
import { figure, figures, note, progress, type SystemName } from "../result.ts"
import { inRounds } from "../rounds.ts"
import { target } from "../systems.ts"
import { createDue, settled, waitFor } from "./common.ts"

/** A gap between two deliveries' starts this long is a pause of the thread (a full collection, a storage flush), not work. */
const PAUSE_MS = 10

/** The time in pauses: the gaps of PAUSE_MS or more between consecutive delivery starts, summed. */
function pausedMs(starts: readonly number[]): number {
  const sorted = [...starts].sort((a, b) => a - b)
  let paused = 0
  for (let i = 1; i < sorted.length; i++) {
    const gap = (sorted[i] as number) - (sorted[i - 1] as number)
    if (gap >= PAUSE_MS) paused += gap
  }
  return paused
}

interface Burst {
  setupMs: number
  marginMs: number
  firstLateMs: number
  spanMs: number
  perSecond: number
  /** Of spanMs, the pauses of PAUSE_MS or more between deliveries. */
  pausedMs: number
  duplicates: number
}

/**
 * burst: n one-shot schedules all due at T0, a consumer that does nothing, real alarms and real
 * time. Deliveries per second from T0 to the start of the last delivery; the figures are each
 * system's median of `rounds` rounds (rounds.ts). A run whose setup missed T0 is run once more in
 * a fresh object, T0 placed from that setup's time.
 */
export async function burst(
  n: number,
  order: readonly SystemName[],
  clocks: Record<SystemName, SetupClock>,
  rounds: number,
) {
  const workload = `burst ${n.toLocaleString("en-US")}`
  const once = async (system: SystemName, round: number) => {
    let result = await measure(workload, system, n, clocks[system], `${round}`)
    if (result.marginMs < 0) {
      progress(`${workload} ${system}: the setup missed T0; once more, T0 placed from this setup's time`)
      note(workload, `${system}: the first setup missed T0 by ${-result.marginMs} ms; ran again in a fresh object`)
      result = await measure(workload, system, n, clocks[system], `${round}-again`)
    }
    return result
  }
  const { median, best } = await inRounds(workload, order, rounds, once, (r) => r.perSecond)
  figures(workload, median, [
    ["deliveries / s (T0 to last delivery)", (r) => r.perSecond],
    ["ms from T0 to last delivery", (r) => r.spanMs],
    ["of which pauses of 10 ms or more between deliveries, ms", (r) => r.pausedMs],
    ["ms from T0 to first delivery", (r) => r.firstLateMs],
    ["setup ms (create n schedules)", (r) => r.setupMs],
    ["setup margin before T0 ms", (r) => r.marginMs],
    ["duplicate deliveries", (r) => r.duplicates],
  ])
  if (rounds > 1) figure(workload, `deliveries / s, best of ${rounds} rounds`, best)
}

async function measure(workload: string, system: SystemName, n: number, clock: SetupClock, round: string) {
  const t = target(system, `burst-${n}-${system}-${round}`)
  progress(`${workload} ${system}: creating ${n} one-shot schedules`)
  const { dueAt, setupMs, marginMs } = await createDue(t, n, "noop", clock, workload)
  progress(`${workload} ${system}: created in ${setupMs} ms; T0 in ${marginMs} ms; waiting for ${n} deliveries`)
  const seen = run(t.name)
  await waitFor(
    `${workload} ${system}`,
    () => seen.distinct >= n,
    Math.max(0, marginMs) + 60_000 + n * 20,
    () => `${seen.distinct} of ${n} delivered, ${seen.seen.length} deliveries`,
  )
  await settled(t)
  const starts = seen.successes.map((s) => s.startedAt)
  const first = starts.reduce((a, b) => Math.min(a, b))
  const last = starts.reduce((a, b) => Math.max(a, b))
  const result: Burst = {
    setupMs,
    marginMs,
    firstLateMs: first - dueAt,
    spanMs: last - dueAt,
    perSecond: Math.round(n / (Math.max(1, last - dueAt) / 1000)),
    pausedMs: pausedMs(starts),
    duplicates: seen.seen.length - n,
  }
  progress(`${workload} ${system}: ${JSON.stringify(result)}`)
  await t.done()
  return result
}
