import type { ScheduleEvent } from "../../answers.ts"
import { api } from "./api.ts"
import { showBackfill } from "./backfill.ts"
import { badge, byId, el, emptyRow } from "./dom.ts"
import { duration, timing, when } from "./format.ts"
import { fail } from "./session.ts"

/** The schedule whose definition and newest events are open. */
const selected = { stream: null as string | null, id: null as string | null }

export const selectedId = () => selected.id

export function selectSchedule(stream: string, id: string): Promise<void> {
  Object.assign(selected, { stream, id })
  for (const row of byId("schedules-body").querySelectorAll<HTMLElement>("tr[data-id]")) {
    row.setAttribute("aria-selected", String(row.dataset.id === id))
  }
  return loadDetail()
}

export function closeDetail(): void {
  Object.assign(selected, { stream: null, id: null })
  byId("events-panel").hidden = true
  byId("schedule-detail").replaceChildren()
  byId("events-body").replaceChildren()
}

export async function loadDetail(): Promise<void> {
  const { stream, id } = selected
  if (stream === null || id === null) return
  try {
    const { schedule: s, events } = await api("schedule", { stream, id })
    // Another schedule was opened meanwhile: this answer is stale.
    if (stream !== selected.stream || id !== selected.id) return
    byId("events-name").textContent = `${stream} / ${id}`
    const terms: Array<[string, Node | string | Array<Node | string> | null] | null> = [
      ["consumer", el("span", { class: "mono" }, s.consumer)],
      ["timing", el("span", {}, timing(s.timing))],
      ["state", badge(s.state, { "data-testid": "detail-state" })],
      ["attempts", `${s.attempts}${s.maxAttempts ? ` / ${s.maxAttempts}` : ""} at occurrence ${s.occurrence}`],
      ["next delivery", el("span", { "data-testid": "detail-next" }, when(s.nextAt))],
      ["on the cadence", el("span", { "data-testid": "detail-cadence" }, when(s.cadenceAt))],
      s.jitterMs === null
        ? null
        : ["jitter", el("span", { "data-testid": "detail-jitter" }, `up to ${duration(s.jitterMs)}`)],
      s.startAt === null && s.endAt === null
        ? null
        : ["window", el("span", { "data-testid": "detail-window" }, "from ", when(s.startAt), " to ", when(s.endAt))],
      s.times === null
        ? null
        : ["count", el("span", { "data-testid": "detail-count" }, `${s.delivered} of ${s.times} delivered`)],
      s.cancelReason === null
        ? null
        : ["cancel reason", el("span", { "data-testid": "detail-reason" }, s.cancelReason)],
      s.backfillOf === null ? null : ["backfill of", el("span", { class: "mono" }, s.backfillOf)],
      ["payload", el("pre", {}, JSON.stringify(s.payload, null, 2))],
      ["claimed until", when(s.claimUntil)],
      ["created", when(s.createdAt)],
      ["updated", when(s.updatedAt)],
    ]
    byId("schedule-detail").replaceChildren(
      ...terms.flatMap((entry) => (entry ? [el("dt", {}, entry[0]), el("dd", {}, entry[1])] : [])),
    )
    showBackfill(stream, s)
    byId("events-body").replaceChildren(...events.map(eventRow))
    if (events.length === 0) byId("events-body").append(emptyRow(4, "No events recorded."))
    byId("events-panel").hidden = false
  } catch (error) {
    fail(error)
  }
}

const eventRow = (e: ScheduleEvent) =>
  el(
    "tr",
    { "data-testid": "event-row", "data-type": e.type },
    el("td", { class: "mono" }, String(e.seq)),
    el("td", {}, when(e.at)),
    el("td", { class: "mono" }, e.type),
    el("td", {}, el("pre", {}, JSON.stringify(e.data))),
  )
