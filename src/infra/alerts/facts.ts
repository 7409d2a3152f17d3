import { database } from "../db/index.ts"
import { TIMED_OUT, within } from "../deadline.ts"
import type { SlotwiseEnv } from "../env.ts"
import { listLeases } from "../jobs/protocol/lease.ts"
import { type Pause, pausesOfAll } from "../jobs/protocol/pauses.ts"
import { stream as streamClient } from "../schedules/client/stream-client.ts"
import type { ScheduleView } from "../schedules/contract/view.ts"
import { staleStreams } from "../schedules/directory/stream-directory.ts"
import type { Facts } from "./findings.ts"
import type { AlertKind, AlertRule } from "./rule.ts"

/** Failed schedules a schedule-failed rule reads of its stream a run: an incident each. */
export const FAILED_PER_STREAM = 100
/** Streams a stream-overdue rule reads a run, the most overdue first. */
export const OVERDUE_READ = 50
/** The pauses a job-missed rule reads: a day's, more than its 20 newest slots of any job that runs hourly or more often. */
export const PAUSES_READ_MS = 24 * 60 * 60_000
/** How long a run waits for a watched stream's failed schedules; one that does not answer is judged next minute. */
export const WATCHED_STREAM_DEADLINE_MS = 4_000

function byJob(pauses: readonly Pause[]): Map<string, Pause[]> {
  const grouped = new Map<string, Pause[]>()
  for (const pause of pauses) grouped.set(pause.job, [...(grouped.get(pause.job) ?? []), pause])
  return grouped
}

/** Each watched stream's failed schedules, all asked at once: one that does not answer costs its own deadline only. */
async function failedOf(env: SlotwiseEnv, rules: readonly AlertRule[], deadlineMs: number) {
  const failed = new Map<string, readonly ScheduleView[]>()
  const failedThrough = new Map<string, string>()
  // A stream that does not answer says nothing this run: its rule's incidents stay as they are.
  const unavailable = new Set<string>()
  await Promise.all(
    rules.map(async (rule) => {
      if (rule.kind !== "schedule-failed") return
      const listing = Promise.resolve().then(() =>
        streamClient(env.SCHEDULES, rule.stream).list({ state: "failed", limit: FAILED_PER_STREAM }),
      )
      const page = await within(listing, deadlineMs).catch((): typeof TIMED_OUT => TIMED_OUT)
      if (page === TIMED_OUT) unavailable.add(rule.id)
      else {
        failed.set(rule.stream, page.schedules)
        if (page.cursor !== null) failedThrough.set(rule.stream, page.cursor)
      }
    }),
  )
  return { failed, failedThrough, unavailable }
}

/** Reads what the rules need, once and at once: lease rows, pauses, the watched streams' failed schedules, overdue streams. */
export async function factsFor(
  env: SlotwiseEnv,
  rules: readonly AlertRule[],
  now: number,
  deadlineMs = WATCHED_STREAM_DEADLINE_MS,
): Promise<Facts & { unavailable: Set<string> }> {
  const db = database(env.DB)
  const needs = (...kinds: AlertKind[]) => rules.some((rule) => kinds.includes(rule.kind))
  const overdueRule = rules.find((rule) => rule.kind === "stream-overdue")
  const [leases, pauses, overdue, { failed, failedThrough, unavailable }] = await Promise.all([
    needs("job-failed", "job-missed") ? listLeases(db) : [],
    needs("job-missed") ? pausesOfAll(db, now - PAUSES_READ_MS) : [],
    overdueRule ? staleStreams(env.DB, now - overdueRule.afterMs, OVERDUE_READ) : [],
    failedOf(env, rules, deadlineMs),
  ])
  return {
    now,
    leases: new Map(leases.map((lease) => [lease.name, lease])),
    pauses: byJob(pauses),
    failed,
    failedThrough,
    overdue: overdue.map((entry) => ({ name: entry.name, nextEligibleAt: entry.nextEligibleAt })),
    unavailable,
  }
}
