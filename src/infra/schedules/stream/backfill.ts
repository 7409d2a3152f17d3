import { parseCron } from "../../cron.ts"
import { MAX_BACKFILL } from "../contract/limits.ts"
import type { EventDraft } from "../contract/schedule-events.ts"
import type { BackfillReport } from "../contract/view.ts"
import type { Change, NoChange } from "./core/transition.ts"
import { fnv1a } from "./jitter.ts"
import { isRecurring, type ScheduleRow } from "./row.ts"

/**
 * The id of the one-shot a backfill `run` creates for the occurrence of `parent` at `at`: `<parent>~backfill-<run>-<at>`,
 * never a name a caller can pick twice by chance. It is always a NAME (at most 128 characters), so the client and
 * admin can get, cancel and remove it: a parent too long for that keeps its first characters and a hash of the
 * whole (`<prefix>~<fnv1a, 8 hex>~backfill-<run>-<at>`), the same on every call.
 */
export function backfillId(parent: string, run: number, at: number): string {
  const suffix = `~backfill-${run}-${at}`
  if (parent.length + suffix.length <= MAX_NAME) return parent + suffix
  const tag = `~${fnv1a(parent).toString(16).padStart(8, "0")}`
  return parent.slice(0, MAX_NAME - tag.length - suffix.length) + tag + suffix
}

const MAX_NAME = 128

/**
 * The times a recurring row's cadence names in [from, to], inside its window, oldest first: at most
 * `limit + 1`, so a caller sees the range is over the limit without walking all of it. `every` steps
 * from the row's own cadence (cadenceAt, plus or minus whole intervals); a cron is asked in its zone.
 */
export function cadenceTimes(row: ScheduleRow, from: number, to: number, limit: number): number[] {
  const start = Math.max(from, row.startAt ?? from)
  const end = Math.min(to, row.endAt ?? to)
  const times: number[] = []
  if (row.kind === "every") {
    const interval = row.intervalMs as number
    for (let at = row.cadenceAt + Math.ceil((start - row.cadenceAt) / interval) * interval; at <= end; at += interval) {
      times.push(at)
      if (times.length > limit) break
    }
    return times
  }
  const cron = parseCron(row.cron as string, row.timezone as string)
  for (let at = cron.nextAfter(start - 1); at !== undefined && at <= end; at = cron.nextAfter(at)) {
    times.push(at)
    if (times.length > limit) break
  }
  return times
}

/** What a backfill writes: a one-shot row per occurrence, and a `schedule/set` event on the schedule backfilled. */
export interface BackfillPlan {
  report: BackfillReport
  changes: Change[]
}

/**
 * The backfill of `parent` over [from, to] (checked by validateBackfillRange) as run `run`: one one-shot per
 * past occurrence its cadence names there, due at that time, with its consumer, payload and maxAttempts, each a
 * row of its own (`backfillOf` names the parent), so each has its own key and goes through the same claim,
 * retries and settlement as any schedule, at most 32 in flight. Refuses a one-shot, a range over MAX_BACKFILL
 * occurrences (naming `to`), and an id already taken; `incarnation` draws each new row's. Pure: the shell writes the changes.
 */
export function backfill(
  parent: ScheduleRow | undefined,
  range: { from: number; to: number },
  run: number,
  now: number,
  incarnation: () => number,
  exists: (id: string) => boolean,
  dryRun: boolean,
): BackfillPlan | (NoChange & { field?: "to" }) {
  if (!parent) return { row: parent, events: [] }
  if (!isRecurring(parent))
    return { row: parent, events: [], refused: "a one-shot has no past occurrences to backfill" }
  const times = cadenceTimes(parent, range.from, range.to, MAX_BACKFILL)
  if (times.length > MAX_BACKFILL) {
    const refused = `names more than ${MAX_BACKFILL} occurrences: backfill the range in parts`
    return { row: parent, events: [], refused, field: "to" }
  }
  const ids = times.map((at) => backfillId(parent.id, run, at))
  const taken = ids.find(exists)
  if (taken !== undefined) return { row: parent, events: [], refused: `a schedule "${taken}" exists already` }
  const report: BackfillReport = {
    scheduleId: parent.id,
    from: range.from,
    to: range.to,
    count: times.length,
    firstAt: times[0] ?? null,
    lastAt: times.at(-1) ?? null,
    dryRun,
    ids: dryRun ? [] : ids,
  }
  if (dryRun || times.length === 0) return { report, changes: [] }
  const changes: Change[] = times.map((at, i) => {
    const row: ScheduleRow = {
      id: ids[i] as string,
      consumer: parent.consumer,
      kind: "at",
      atMs: at,
      intervalMs: null,
      cron: null,
      timezone: null,
      payload: parent.payload,
      maxAttempts: parent.maxAttempts,
      state: "scheduled",
      occurrence: 1,
      nextAt: at,
      cadenceAt: at,
      retryAt: null,
      claimUntil: null,
      claimToken: null,
      attempts: 0,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      incarnation: incarnation(),
      startAt: null,
      endAt: null,
      times: null,
      delivered: 0,
      jitterMs: null,
      cancelReason: null,
      backfillOf: parent.id,
    }
    const event: EventDraft = {
      type: "schedule/set",
      scheduleId: row.id,
      data: { cause: "backfill", backfillOf: parent.id, run, occurrence: 1, nextAt: at },
    }
    return { row, events: [event] }
  })
  const noted: EventDraft = {
    type: "schedule/set",
    scheduleId: parent.id,
    data: {
      cause: "backfilled",
      run,
      from: range.from,
      to: range.to,
      count: times.length,
      occurrence: parent.occurrence,
      nextAt: parent.nextAt,
    },
  }
  changes.push({ row: parent, events: [noted] })
  return { report, changes }
}
