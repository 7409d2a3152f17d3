import { type ScheduleState, STATES } from "../../../schedules/contract/states.ts"
import type { ScheduleView, StreamSummary } from "../../answers.ts"
import { DESTRUCTIVE, LABEL, QUESTION, type ScheduleVerb, verbsFor } from "./actions.ts"
import { api, ProblemError } from "./api.ts"
import { initBackfill } from "./backfill.ts"
import { closeDetail, loadDetail, selectedId, selectSchedule } from "./detail.ts"
import { badge, button, byId, el, emptyRow, fill } from "./dom.ts"
import { span, timing, when } from "./format.ts"
import { act, fail } from "./session.ts"
import { clearStreamHistory, initStreamHistory, loadStreamHistory } from "./stream-history.ts"
import { markCurrent, PAGE_SIZE } from "./streams.ts"

/** The open stream's schedules, filtered by state and paged by cursor; gen drops answers that arrive out of order. */
const view = {
  stream: null as string | null,
  state: "" as ScheduleState | "",
  cursors: [null] as Array<string | null>,
  page: 0,
  gen: 0,
}

export function openStream(name: string): void {
  Object.assign(view, { stream: name, cursors: [null], page: 0 })
  markCurrent(name)
  closeDetail()
  byId("stream-name").textContent = name
  byId("schedules-panel").hidden = false
  void loadSchedules()
}

export function clearSchedules(): void {
  Object.assign(view, { stream: null, cursors: [null], page: 0, gen: view.gen + 1 })
  for (const id of ["schedules-body", "stream-summary"]) byId(id).replaceChildren()
  byId("schedules-panel").hidden = true
  clearStreamHistory()
  closeDetail()
}

/** The open stream's summary and page of schedules, and the open schedule's detail. */
export async function loadSchedules(): Promise<void> {
  const stream = view.stream
  if (stream === null) return
  const gen = ++view.gen
  const cursor = view.cursors[view.page]
  try {
    const [summary, page] = await Promise.all([
      api("summary", { stream }),
      api("schedules", { stream }, { query: { limit: PAGE_SIZE, state: view.state, cursor } }),
    ])
    if (gen !== view.gen) return
    showMissing(null)
    fill(byId("stream-summary"), summaryOf(summary))
    view.cursors.length = view.page + 1
    if (page.cursor) view.cursors.push(page.cursor)
    byId("schedules-body").replaceChildren(...page.schedules.map(scheduleRow))
    if (page.schedules.length === 0) byId("schedules-body").append(emptyRow(7, "No schedules here."))
    byId<HTMLButtonElement>("schedules-prev").disabled = view.page === 0
    byId<HTMLButtonElement>("schedules-next").disabled = !page.cursor
    byId("schedules-page").textContent = `page ${view.page + 1}`
    void loadStreamHistory(stream)
    if (selectedId() !== null) await loadDetail()
  } catch (error) {
    if (gen !== view.gen) return
    if (error instanceof ProblemError && error.status === 404 && error.body.field === "stream") showMissing(stream)
    else fail(error)
  }
}

/** A stream the directory does not list: said plainly in the panel, instead of an empty table. */
function showMissing(stream: string | null): void {
  byId("stream-missing").hidden = stream === null
  byId("stream-found").hidden = stream !== null
  if (stream === null) return
  for (const id of ["schedules-body", "stream-summary"]) byId(id).replaceChildren()
  byId("stream-missing").textContent =
    `There is no stream "${stream}". A stream exists once a schedule is upserted into it, ` +
    "and leaves the list when it holds none; check the name, or pick one from the list."
}

function summaryOf(s: StreamSummary) {
  const counts = STATES.map((state) =>
    el("span", { class: "count", "data-testid": `count-${state}` }, badge(state), ` ${s.counts[state]}`),
  )
  const overdue = s.oldestOverdue
  return [
    ...counts,
    el("span", { class: "count", "data-testid": "count-retrying" }, badge("retrying"), ` ${s.retrying}`),
    s.partial ? el("span", { class: "sub" }, "(of its first 10,000 schedules)") : null,
    el(
      "div",
      { class: overdue ? "error" : "sub", "data-testid": "stream-overdue" },
      overdue
        ? [
            `${s.overdue} overdue; the oldest, `,
            el("span", { class: "mono" }, overdue.id),
            `, is ${span(overdue.lagMs)} late`,
          ]
        : "nothing overdue",
    ),
  ]
}

/** An alert notice (alerts/notice.ts) reads as what it says, not as its id: its status, rule and subject in words. */
function noticeOf(s: ScheduleView) {
  const notice = s.payload as {
    status?: unknown
    kind?: unknown
    about?: unknown
    subject?: unknown
    summary?: unknown
  }
  if (typeof notice?.kind !== "string" || typeof notice.status !== "string" || typeof notice.summary !== "string")
    return null
  const about = typeof notice.about === "string" ? notice.about : String(notice.subject ?? "")
  return el(
    "div",
    { "data-testid": "schedule-notice", title: `${s.id}\n${notice.summary}` },
    badge(notice.status, {}, notice.status === "firing" ? "late" : "free"),
    ` ${notice.kind}: `,
    el("span", { class: "mono wrap" }, about),
    el("div", { class: "sub clamp" }, notice.summary),
  )
}

function scheduleRow(s: ScheduleView): HTMLTableRowElement {
  const retrying = s.state === "scheduled" && s.retryAt !== null
  return el(
    "tr",
    { "data-testid": "schedule-row", "data-id": s.id, "aria-selected": String(s.id === selectedId()) },
    el(
      "td",
      { class: "name" },
      noticeOf(s) ?? el("div", { class: "mono id", title: s.id }, s.id),
      el("div", { class: "sub nowrap" }, s.consumer),
    ),
    el("td", {}, timing(s.timing)),
    el(
      "td",
      {},
      badge(s.state, { "data-testid": "schedule-state" }),
      retrying ? el("div", {}, badge("retrying", { "data-testid": "schedule-retrying" })) : null,
      s.cancelReason === null
        ? null
        : el("div", { class: "sub clamp", "data-testid": "schedule-reason", title: s.cancelReason }, s.cancelReason),
    ),
    el(
      "td",
      {},
      `${s.attempts}${s.maxAttempts ? ` / ${s.maxAttempts}` : ""}`,
      el("div", { class: "sub nowrap" }, `occurrence ${s.occurrence}`),
      s.times === null ? null : el("div", { class: "sub nowrap" }, `delivered ${s.delivered} of ${s.times}`),
    ),
    el("td", { "data-testid": "schedule-due" }, due(s)),
    el("td", { "data-testid": "schedule-error" }, el("div", { class: "error", title: s.lastError }, s.lastError)),
    el(
      "td",
      {},
      el(
        "div",
        { class: "actions grid" },
        button("Events", () => void selectSchedule(view.stream as string, s.id), { "data-testid": "schedule-events" }),
        verbsFor(s.state).map((verb) =>
          button(LABEL[verb], () => scheduleAction(s.id, verb), {
            "data-testid": `schedule-${verb}`,
            class: DESTRUCTIVE.has(verb) ? "danger" : null,
          }),
        ),
      ),
    ),
  )
}

/** When the stream next looks at it: the retry of a failed attempt, else the occurrence (eligibleAt covers a claim). */
function due(s: ScheduleView) {
  const jittered = s.jitterMs !== null && s.cadenceAt !== s.nextAt
  if (jittered && s.retryAt === null && s.eligibleAt === s.nextAt)
    return [when(s.nextAt), el("div", { class: "sub" }, "on the cadence ", when(s.cadenceAt))]
  const occurrence = el("div", { class: "sub" }, "occurrence due ", when(s.nextAt))
  if (s.retryAt !== null) return [el("div", { class: "sub" }, "retry at"), when(s.retryAt), occurrence]
  if (s.eligibleAt !== s.nextAt) return [when(s.eligibleAt), occurrence]
  return when(s.nextAt)
}

function scheduleAction(id: string, verb: ScheduleVerb): void {
  const stream = view.stream as string
  // A removed schedule has nothing left to show: its detail closes, so no refresh asks for it.
  if (verb === "remove") closeDetail()
  else void selectSchedule(stream, id)
  const question = QUESTION[verb](`${id} in stream ${stream}`)
  // A cancel asks for its reason in its confirmation: dismissed, nothing happens; left empty, none is kept.
  const reason = verb === "cancel" ? window.prompt(question, "") : ""
  if (reason === null) return
  void act(
    verb === "cancel" ? null : question,
    () =>
      verb === "remove"
        ? api("remove", { stream, id })
        : verb === "cancel"
          ? api("cancel", { stream, id }, reason.trim() ? { body: { reason: reason.trim() } } : {})
          : api(verb, { stream, id }),
    (r) =>
      verb === "remove"
        ? `removed ${id}`
        : `${verb} ${id}: now ${r.schedule.state}${r.schedule.lastError ? ` (${r.schedule.lastError})` : ""}`,
    loadSchedules,
  )
}

/** Wires the state filter, the pager and the refresh button. */
export function initSchedules(): void {
  const filter = byId<HTMLSelectElement>("state-filter")
  filter.addEventListener("change", () => {
    Object.assign(view, { state: filter.value as ScheduleState | "", cursors: [null], page: 0 })
    void loadSchedules()
  })
  byId("schedules-prev").addEventListener("click", () => {
    view.page = Math.max(0, view.page - 1)
    void loadSchedules()
  })
  byId("schedules-next").addEventListener("click", () => {
    view.page += 1
    void loadSchedules()
  })
  byId("schedules-refresh").addEventListener("click", () => void loadSchedules())
  initStreamHistory(() => view.stream)
  initBackfill(loadSchedules)
}
