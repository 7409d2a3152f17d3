import { and, desc, eq, gte, isNotNull, isNull, or, sql } from "drizzle-orm"
import { type Database, jobsPauses } from "../../db/index.ts"
import type { Pause } from "../contract/pause.ts"

export type { Pause } from "../contract/pause.ts"

/** The D1 queries a heartbeat's pause lookup makes: one, whatever the number of due jobs. */
export const PAUSE_QUERIES = 1
/** A pause's reason is 1 to this many characters. */
export const PAUSE_REASON_MAX = 500
/** Pauses ended this long ago are deleted (the history's window). */
export const PAUSES_KEPT_MS = 30 * 24 * 3_600_000

/** Every job paused now, by name: one query through the open-pause index, whatever the number of jobs. */
export async function pausedJobs(db: Database): Promise<Map<string, Pause>> {
  const rows = await db.select().from(jobsPauses).where(isNull(jobsPauses.resumedAt))
  return new Map(rows.map((row) => [row.job, row]))
}

/** A job's pauses that overlap [since, now], newest first: what its history shows as paused slots. */
export function pausesSince(db: Database, job: string, since: number) {
  return db
    .select()
    .from(jobsPauses)
    .where(and(eq(jobsPauses.job, job), or(isNull(jobsPauses.resumedAt), gte(jobsPauses.resumedAt, since))))
    .orderBy(desc(jobsPauses.pausedAt))
}

/** Every job's pauses that overlap [since, now] (at most 1,000, newest first): the admin's job list shows them. */
export function pausesOfAll(db: Database, since: number) {
  return db
    .select()
    .from(jobsPauses)
    .where(or(isNull(jobsPauses.resumedAt), gte(jobsPauses.resumedAt, since)))
    .orderBy(desc(jobsPauses.pausedAt))
    .limit(1_000)
}

/**
 * Pauses `job` from `now`: answers the open pause, the one written or the one already there (a second pause
 * changes nothing). One statement; the open-pause index keeps one open pause a job.
 */
export async function pauseJob(
  db: Database,
  pause: { job: string; reason: string; by: string | null; now: number },
): Promise<{ pause: Pause; created: boolean }> {
  const written = await db
    .insert(jobsPauses)
    .values({ job: pause.job, pausedAt: pause.now, pausedBy: pause.by, reason: pause.reason })
    .onConflictDoNothing()
    .returning()
  if (written[0]) return { pause: written[0], created: true }
  const open = await db
    .select()
    .from(jobsPauses)
    .where(and(eq(jobsPauses.job, pause.job), isNull(jobsPauses.resumedAt)))
  if (open[0]) return { pause: open[0], created: false }
  // Paused, resumed and paused again in one millisecond: the resumed pause holds the key, so it opens again.
  const reopened = await db
    .update(jobsPauses)
    .set({ resumedAt: null, resumedBy: null, pausedBy: pause.by, reason: pause.reason })
    .where(and(eq(jobsPauses.job, pause.job), eq(jobsPauses.pausedAt, pause.now), isNotNull(jobsPauses.resumedAt)))
    .returning()
  if (!reopened[0]) throw new Error(`job "${pause.job}" could not be paused: its pause at ${pause.now} exists already`)
  return { pause: reopened[0], created: true }
}

/**
 * Resumes `job` at `now`: its open pause gets `resumedAt`, so the next slot runs; answers it, or undefined when
 * the job was not paused. The same batch deletes a few pauses ended past PAUSES_KEPT_MS.
 */
export async function resumeJob(
  db: Database,
  resume: { job: string; by: string | null; now: number },
): Promise<Pause | undefined> {
  const [resumed] = await db.batch([
    db
      .update(jobsPauses)
      .set({ resumedAt: resume.now, resumedBy: resume.by })
      .where(and(eq(jobsPauses.job, resume.job), isNull(jobsPauses.resumedAt)))
      .returning(),
    db.delete(jobsPauses).where(
      sql`(${jobsPauses.job}, ${jobsPauses.pausedAt}) in (select job, paused_at from jobs_pauses
          where resumed_at < ${resume.now - PAUSES_KEPT_MS} limit 8)`,
    ),
  ])
  return resumed[0]
}

/**
 * The heartbeat's one lookup: `due` without the jobs paused now (one query for all of them, none when nothing
 * is due), each skipped one logged as `job.run` with outcome `paused`. A lookup that fails runs them all,
 * logged once: a pause is an operator's wish, and losing the slots of every job to a read is worse.
 */
export async function withoutPaused<J extends { name: string }>(
  db: Database,
  due: readonly J[],
  slot: Date,
  log: (level: "info" | "error", message: string, fields: Record<string, unknown>) => void,
): Promise<J[]> {
  if (due.length === 0) return []
  let paused: Map<string, Pause>
  try {
    paused = await pausedJobs(db)
  } catch (error) {
    log("error", "heartbeat: paused jobs could not be read; every due job runs", { error: String(error) })
    return [...due]
  }
  if (paused.size === 0) return [...due]
  return due.filter((job) => {
    const pause = paused.get(job.name)
    if (pause)
      log("info", "job.run", { job: job.name, slot: slot.toISOString(), outcome: "paused", reason: pause.reason })
    return !pause
  })
}
