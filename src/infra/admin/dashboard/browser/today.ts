import type { JobHistory, JobView } from "../../answers.ts"
import { el } from "./dom.ts"
import { relative, when } from "./format.ts"
import { todayCounts, todayWord } from "./today-counts.ts"

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
