import type { JobHistory } from "../../answers.ts"

type Slot = JobHistory["today"][number]

/** Today's slots counted from the job's first run on: a slot before it ("unknown") was not yet the job's to run. */
export function todayCounts(today: readonly Slot[]) {
  const count = (...statuses: Slot["status"][]) => today.filter((s) => statuses.includes(s.status)).length
  const past = today.length - count("due", "unknown")
  return {
    past,
    ran: count("ran"),
    failed: count("failed", "timed-out"),
    skipped: count("skipped"),
    missed: count("missed"),
    paused: count("paused"),
    claimed: count("claimed"),
    toCome: count("due"),
    since: today.find((s) => s.status !== "unknown" && s.status !== "due")?.slot ?? null,
  }
}

/** Today in words: "so far 14 of 15 slots ran since 03:12 · 1 failed · 0 missed · 45 to come", or that none was due yet. */
export function todayNote(today: readonly Slot[]): string {
  const c = todayCounts(today)
  if (c.past === 0) return `No slot of today was due since its first run yet · ${c.toCome} to come`
  const since = c.since === null ? "" : ` since ${new Date(c.since).toISOString().slice(11, 16)} UTC`
  return (
    `So far ${c.ran} of ${c.past} slots ran${since} · ${c.failed} failed · ${c.skipped} skipped · ` +
    `${c.missed} missed · ${c.paused} paused${c.claimed ? ` · ${c.claimed} running or unrecorded` : ""} · ${c.toCome} to come`
  )
}

/**
 * The "Today" cell's words: "all 15 ran" only when every past slot ran (or runs now); a paused slot is said paused,
 * never ran: "3 of 15 ran · 12 paused".
 */
export function todayWord(c: ReturnType<typeof todayCounts>): string {
  if (c.past === 0) return "none due yet"
  if (c.ran + c.claimed === c.past) return `all ${c.past} ran`
  return `${c.ran} of ${c.past} ran${c.paused ? ` · ${c.paused} paused` : ""}`
}
