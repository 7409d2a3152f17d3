import { leadFor, type SetupClock, wholeSecondAfter } from "../lead.ts"
import { note, progress } from "../result.ts"
import type { Callback, Target } from "../systems.ts"

/**
 * The bench's waits: workerd's `scheduler.wait`, not `setTimeout`, which the test pool wraps to
 * capture the caller's stack on every call. The bench polls while the systems it measures run on
 * the same thread, so each poll must cost next to nothing.
 */
export const sleep = (ms: number) => scheduler.wait(ms)

/** `smoke` for CI (BENCH_SMOKE=1), `full` otherwise. */
export const pick = <T>(smoke: boolean, values: { smoke: T; full: T }) => (smoke ? values.smoke : values.full)

export interface DueSetup {
  /** T0: every schedule's due time, on a whole second. */
  dueAt: number
  setupMs: number
  /** T0 minus the end of the setup; negative when the setup was still running at T0. */
  marginMs: number
}

/**
 * Creates `count` one-shot schedules due at one whole second T0, placed after the setup as
 * `clock` predicts it; teaches the clock what this setup took, and says so if it missed T0.
 */
export async function createDue(
  target: Target,
  count: number,
  callback: Callback,
  clock: SetupClock,
  workload: string,
): Promise<DueSetup> {
  const started = Date.now()
  const dueAt = wholeSecondAfter(started, leadFor(clock.predict(count)))
  const step = Math.max(1, Math.ceil(count / 4))
  for (let from = 0; from < count; from += step) {
    const to = Math.min(count, from + step)
    await target.once(from, to, dueAt, callback)
    clock.add(to, Date.now() - started)
  }
  const setupMs = Date.now() - started
  const marginMs = dueAt - Date.now()
  if (marginMs < 0) {
    const text = `${target.system}: the setup of ${count} schedules finished ${-marginMs} ms AFTER T0`
    progress(`${workload}: WARNING ${text}`)
    note(workload, text)
  }
  return { dueAt, setupMs, marginMs }
}

/** Polls every 20 ms until `done()`; throws with `status()` once `timeoutMs` passed. */
export async function waitFor(what: string, done: () => boolean, timeoutMs: number, status: () => string) {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs} ms (${status()})`)
    await sleep(20)
  }
}

/** An alarm this far ahead is not the work's: a stream keeps one for its retention sweep (days ahead). */
const QUIET_AHEAD_MS = 60_000

/** Waits until the object has no alarm left due soon (its last tick or alarm ran and found nothing more), at most 30 s. */
export async function settled(target: Target): Promise<void> {
  const deadline = Date.now() + 30_000
  const busy = (alarm: number | null) => alarm !== null && alarm < Date.now() + QUIET_AHEAD_MS
  while (busy(await target.alarm())) {
    if (Date.now() > deadline) throw new Error(`${target.name}: its alarm is still due 30 s after the work`)
    await sleep(50)
  }
}

/** The value at quantile q (0..1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits
