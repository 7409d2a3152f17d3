import { leadFor, type SetupClock, wholeSecondAfter } from "../lead.ts"
import { run } from "../record.ts"
import { figure, figures, note, progress, type SystemName } from "../result.ts"
import { inRounds } from "../rounds.ts"
import { target } from "../systems.ts"
import { settled, waitFor } from "./common.ts"

interface Many {
  setupMs: number
  marginMs: number
  firstLateMs: number
  spanMs: number
  perSecond: number
  /** The stream whose last delivery came first, and the one whose came last: how evenly they share. */
  earliestLastMs: number
  duplicates: number
}

/**
 * many streams: `count` objects of one system, each with `perStream` one-shots all due at the
 * same T0 (the consumer does nothing, real alarms and real time). Aggregate deliveries per second
 * from T0 to the last delivery of any of them, the first and last delivery, and the spread of
 * each stream's last delivery. Every object runs in this one workerd process here, on one thread.
 */
export async function manyStreams(
  counts: readonly number[],
  perStream: number,
  order: readonly SystemName[],
  clocks: Record<SystemName, SetupClock>,
  rounds: number,
) {
  for (const count of counts) {
    const workload = `${count} streams x ${perStream.toLocaleString("en-US")}`
    const measureOnce = (system: SystemName, round: number) =>
      measure(workload, system, count, perStream, clocks[system], round)
    const { median, best } = await inRounds(workload, order, rounds, measureOnce, (r) => r.perSecond)
    figures(workload, median, [
      ["deliveries / s, all streams (T0 to last delivery)", (r) => r.perSecond],
      ["ms from T0 to first delivery", (r) => r.firstLateMs],
      ["ms from T0 to last delivery", (r) => r.spanMs],
      ["ms from T0 to the first stream's last delivery", (r) => r.earliestLastMs],
      ["setup ms (create all schedules)", (r) => r.setupMs],
      ["duplicate deliveries", (r) => r.duplicates],
    ])
    if (rounds > 1) figure(workload, `deliveries / s, best of ${rounds} rounds`, best)
  }
}

async function measure(
  workload: string,
  system: SystemName,
  count: number,
  perStream: number,
  clock: SetupClock,
  round: number,
) {
  const targets = Array.from({ length: count }, (_, k) => target(system, `many-${count}-${system}-${round}-${k}`))
  progress(`${workload} ${system}: creating ${count} x ${perStream} one-shot schedules`)
  const started = Date.now()
  const dueAt = wholeSecondAfter(started, leadFor(clock.predict(perStream) * count))
  for (const t of targets) await t.once(0, perStream, dueAt, "noop")
  const setupMs = Date.now() - started
  const marginMs = dueAt - Date.now()
  if (marginMs < 0) note(workload, `${system}: the setup finished ${-marginMs} ms AFTER T0`)
  progress(`${workload} ${system}: created in ${setupMs} ms; T0 in ${marginMs} ms; waiting`)
  const runs = targets.map((t) => run(t.name))
  await waitFor(
    `${workload} ${system}`,
    () => runs.every((seen) => seen.distinct >= perStream),
    Math.max(0, marginMs) + 120_000 + count * perStream * 5,
    () => `${runs.reduce((n, seen) => n + seen.distinct, 0)} of ${count * perStream} delivered`,
  )
  for (const t of targets) await settled(t)
  const lasts = runs.map((seen) => Math.max(...seen.successes.map((s) => s.startedAt)))
  const first = Math.min(...runs.map((seen) => Math.min(...seen.successes.map((s) => s.startedAt))))
  const last = Math.max(...lasts)
  const result: Many = {
    setupMs,
    marginMs,
    firstLateMs: first - dueAt,
    spanMs: last - dueAt,
    perSecond: Math.round((count * perStream) / (Math.max(1, last - dueAt) / 1000)),
    earliestLastMs: Math.min(...lasts) - dueAt,
    duplicates: runs.reduce((n, seen) => n + seen.seen.length, 0) - count * perStream,
  }
  progress(`${workload} ${system}: ${JSON.stringify(result)}`)
  for (const t of targets) {
    await t.quiet()
    await t.done()
  }
  return result
}
