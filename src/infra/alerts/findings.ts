import type { JobLease } from "../db/job-lease.ts"
import type { Pause } from "../jobs/contract/pause.ts"
import { runsOf } from "../jobs/contract/record.ts"
import { timeline } from "../jobs/history/timeline.ts"
import type { ScheduleView } from "../schedules/contract/view.ts"
import type { AlertRule } from "./rule.ts"

/** A rule's condition holding for one subject right now: an incident is open while it keeps holding. */
export interface Finding {
  rule: string
  subject: string
  summary: string
}

/** What the rules are judged on, read once a run (alerts/alert-job.ts). */
export interface Facts {
  now: number
  leases: ReadonlyMap<string, JobLease>
  /** Each job's pauses over the last day, open ones included: its slots then were paused, not missed. */
  pauses: ReadonlyMap<string, readonly Pause[]>
  /** Each watched stream's failed schedules (at most FAILED_PER_STREAM). */
  failed: ReadonlyMap<string, readonly ScheduleView[]>
  /** A watched stream whose failed schedules were more than were read: the last id read (they are read by id). */
  failedThrough?: ReadonlyMap<string, string>
  /** Streams whose recorded alarm is long past, with when it was due. */
  overdue: ReadonlyArray<{ name: string; nextEligibleAt: number }>
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * A job's recorded runs of slots before the alerts job's own, newest first. A run of the same slot may still
 * wait in its release's group commit (up to 50 ms) when the rules read, and may have committed or not: judged
 * only once surely committed (the next minute), "fail K times, then succeed" is seen failing before it is seen
 * succeeding, and its incident is never missed.
 */
const committedRuns = (job: string, facts: Facts) => runsOf(facts.leases.get(job)).filter((run) => run.slot < facts.now)

/**
 * What resolved `rule`'s incident about `subject`, in words: its finding is gone from `facts` (a resolved
 * notice's summary). Pure, as findingsOf.
 */
export function resolutionOf(rule: AlertRule, subject: string, facts: Facts): string {
  switch (rule.kind) {
    case "job-failed": {
      const run = committedRuns(subject, facts)[0]
      return run?.outcome === "ran"
        ? `${subject} ran again: its run for slot ${iso(run.slot)} succeeded`
        : `${subject}'s newest runs are no longer all failures`
    }
    case "job-missed": {
      const pause = facts.pauses.get(subject)?.find((p) => p.resumedAt === null)
      const slot = facts.leases.get(subject)?.lastSlot
      return pause
        ? `${subject} was paused (${pause.reason}): a paused job's slots are not missed`
        : `a run took slot ${iso(slot ?? facts.now)} of ${subject} again`
    }
    case "schedule-failed":
      return `schedule ${subject.slice(rule.stream.length + 1)} of stream ${rule.stream} is failed no more: resumed, cancelled, removed or swept`
    case "stream-overdue":
      return `stream ${subject} is on time again: its alarm ran`
    case "heartbeat-late":
      return "the heartbeat runs the alerts job again"
  }
}

/**
 * True when `facts` do not reach `subject`: a schedule whose id sorts after the last one a cut listing read may be
 * failed still, so its incident is left as it is (neither resolved nor opened again).
 */
export function unseen(rule: AlertRule, subject: string, facts: Facts): boolean {
  if (rule.kind !== "schedule-failed") return false
  const through = facts.failedThrough?.get(rule.stream)
  return through !== undefined && subject.slice(rule.stream.length + 1) > through
}

/** What `rule` finds in `facts`: one finding per subject its condition holds for (none for heartbeat-late: a switch). */
export function findingsOf(rule: AlertRule, facts: Facts): Finding[] {
  switch (rule.kind) {
    case "job-failed": {
      const newest = committedRuns(rule.job.name, facts).slice(0, rule.slots)
      const failing = newest.length === rule.slots && newest.every((run) => run.outcome !== "ran")
      if (!failing) return []
      const summary = `${rule.job.name} failed its newest ${rule.slots} runs, the last at slot ${iso(newest[0]?.slot ?? 0)}: ${newest[0]?.error ?? newest[0]?.outcome}`
      return [{ rule: rule.id, subject: rule.job.name, summary }]
    }
    case "job-missed": {
      const lease = facts.leases.get(rule.job.name)
      const pauses = facts.pauses.get(rule.job.name) ?? []
      if (!lease || pauses.some((pause) => pause.resumedAt === null)) return []
      const newest = timeline(rule.job, lease, facts.now, undefined, pauses).slice(0, rule.slots)
      if (newest.length < rule.slots || newest.some((slot) => slot.status !== "missed")) return []
      const summary = `${rule.job.name} missed its newest ${rule.slots} slots, from ${iso(newest.at(-1)?.slot ?? 0)}`
      return [{ rule: rule.id, subject: rule.job.name, summary }]
    }
    case "schedule-failed":
      return (facts.failed.get(rule.stream) ?? []).map((schedule) => ({
        rule: rule.id,
        subject: `${rule.stream}/${schedule.id}`,
        summary: `schedule ${schedule.id} of stream ${rule.stream} failed at occurrence ${schedule.occurrence}: ${schedule.lastError ?? "no reason given"}`,
      }))
    case "stream-overdue":
      return facts.overdue
        .filter((stream) => stream.nextEligibleAt < facts.now - rule.afterMs)
        .map((stream) => ({
          rule: rule.id,
          subject: stream.name,
          summary: `stream ${stream.name} is overdue: its alarm was due at ${iso(stream.nextEligibleAt)}`,
        }))
    case "heartbeat-late":
      return []
  }
}
