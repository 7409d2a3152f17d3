import type { StreamSummary } from "../../../schedules/contract/view.ts"
import { api } from "./api.ts"
import { badge, el, fill } from "./dom.ts"
import { relative } from "./format.ts"

/** Listed streams asked for their summary a few at a time (one page of the list at most). */
const AT_ONCE = 4

/**
 * A listed stream's state in the first view: what failed, what retries, what is overdue, and the newest error with
 * its schedule and when; "all on time" when nothing is wrong. The person paged sees which stream to open.
 */
export function streamStatus(s: StreamSummary) {
  const problems = [
    s.counts.failed ? badge(`${s.counts.failed} failed`, { "data-testid": "stream-failed" }, "failed") : null,
    s.retrying ? badge(`${s.retrying} retrying`, { "data-testid": "stream-retrying" }, "retrying") : null,
    s.overdue ? badge(`${s.overdue} overdue`, { "data-testid": "stream-overdue-count" }, "failed") : null,
  ].filter((node) => node !== null)
  const error = s.newestError ?? null
  return [
    problems.length
      ? el("div", { class: "stream-problems" }, ...problems)
      : el("div", { class: "sub" }, `all on time · ${s.counts.scheduled} scheduled`),
    error
      ? el(
          "div",
          { class: "error", "data-testid": "stream-newest-error", title: `${error.id}: ${error.error}` },
          `${relative(error.at, s.now)}, ${error.id}: ${error.error}`,
        )
      : null,
  ]
}

/** Fills each listed stream's state under its name as its summary arrives; `still` is false once the list moved on. */
export async function loadStreamStatuses(
  names: readonly string[],
  cellOf: (name: string) => Element | null,
  still: () => boolean,
) {
  const queue = [...names]
  const next = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const cell = cellOf(name)
      try {
        const summary = await api("summary", { stream: name })
        if (still() && cell?.isConnected) fill(cell, streamStatus(summary))
      } catch {
        if (still() && cell?.isConnected) fill(cell, el("div", { class: "sub" }, "state unavailable"))
      }
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, next))
}
