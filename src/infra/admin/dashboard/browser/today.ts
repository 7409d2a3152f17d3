import type { JobHistory, JobView } from "../../answers.ts"
import { el } from "./dom.ts"
import { relative, when } from "./format.ts"

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

/**
 * The jobs table's "Today" cell: did every slot run since its first run, and the newest failure today: when, and
 * why (its error, from the runs the lease row keeps; an older failure's error is no longer kept).
 */
export function todayCell(job: JobView, history: JobHistory) {
  const c = todayCounts(history.today)
  const whole = c.past > 0 && c.ran + c.paused + c.claimed === c.past
  const failure = [...history.today].reverse().find((s) => s.status === "failed" || s.status === "timed-out")
  const run = failure && job.slots.find((s) => s.slot === failure.slot)?.run
  return [
    el(
      "div",
      { "data-testid": "job-today", class: whole || c.past === 0 ? "" : "error-text" },
      todayWord(c),
      c.failed ? ` · ${c.failed} failed` : "",
      c.missed ? ` · ${c.missed} missed` : "",
    ),
    el(
      "div",
      { class: "sub" },
      history.knownSince === null
        ? "never ran"
        : c.since !== null && c.since > history.now - (history.now % 86_400_000)
          ? `since its first run, ${new Date(c.since).toISOString().slice(11, 16)} UTC`
          : "since midnight UTC",
    ),
    failure
      ? el(
          "div",
          { "data-testid": "job-newest-failure" },
          el("div", { class: "sub" }, `newest failure ${relative(failure.slot, history.now)}: `, when(failure.slot)),
          el(
            "div",
            { class: "error", title: run?.error ?? "" },
            run?.error ?? `${failure.status}; its error is older than the runs kept`,
          ),
        )
      : null,
  ]
}
