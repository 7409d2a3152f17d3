import type { SetupClock } from "../lead.ts"
import { FAILURES_BEFORE_SUCCESS, run } from "../record.ts"
import { figures, note, progress, type SystemName } from "../result.ts"
import { target } from "../systems.ts"
import { createDue, settled, waitFor } from "./common.ts"

interface Retry {
  attempts: number
  successes: number
  settleMs: number
  firstSuccessMs: number
}

/** The Agents SDK 0.32.0 defaults for a schedule's retries (Scheduler DEFAULT_RETRY), kept as they are. */
export const AGENT_RETRY_DEFAULTS = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 3000 }

/**
 * retry: n one-shot schedules due at T0 whose consumer fails twice, then succeeds (slotwise:
 * returns Schedules.retry(); agents: throws). Total attempts, and ms from T0 to the last success.
 */
export async function retry(n: number, order: readonly SystemName[], clocks: Record<SystemName, SetupClock>) {
  const workload = `retry ${n.toLocaleString("en-US")} (fail twice)`
  const results: Partial<Record<SystemName, Retry>> = {}
  for (const system of order) {
    const t = target(system, `retry-${n}-${system}`)
    progress(`${workload} ${system}: creating ${n} one-shot schedules that fail ${FAILURES_BEFORE_SUCCESS} times`)
    const { dueAt, setupMs, marginMs } = await createDue(t, n, "flaky", clocks[system], workload)
    progress(`${workload} ${system}: created in ${setupMs} ms; T0 in ${marginMs} ms; waiting for ${n} successes`)
    const seen = run(t.name)
    await waitFor(
      `${workload} ${system}`,
      () => seen.distinct >= n,
      Math.max(0, marginMs) + 180_000,
      () => `${seen.distinct} of ${n} succeeded after ${seen.seen.length} attempts`,
    )
    await settled(t)
    const successes = seen.successes.map((s) => s.startedAt)
    results[system] = {
      attempts: seen.seen.length,
      successes: successes.length,
      settleMs: successes.reduce((a, b) => Math.max(a, b)) - dueAt,
      firstSuccessMs: successes.reduce((a, b) => Math.min(a, b)) - dueAt,
    }
    progress(`${workload} ${system}: ${JSON.stringify(results[system])}`)
    await t.done()
  }
  figures(workload, results, [
    ["attempts (deliveries incl. failed)", (r) => r.attempts],
    ["successes", (r) => r.successes],
    ["ms from T0 to last success (settled)", (r) => r.settleMs],
    ["ms from T0 to first success", (r) => r.firstSuccessMs],
  ])
  note(
    workload,
    `agents retry defaults kept: ${JSON.stringify(AGENT_RETRY_DEFAULTS)}, full jitter ` +
      "(delay = random(0, min(2^attempt x base, max))), retried in memory inside the alarm, one job at a time; " +
      "slotwise: durable backoff 1 s, 2 s, 4 s ... 60 s, no attempt cap by default.",
  )
}
