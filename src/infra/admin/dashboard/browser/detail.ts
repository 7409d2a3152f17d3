import type { ScheduleEvent } from "../../answers.ts"
import { api } from "./api.ts"
import { badge, byId, el, emptyRow } from "./dom.ts"
import { timing, when } from "./format.ts"
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
    const terms: Array<[string, Node | string | Array<Node | string> | null]> = [
      ["consumer", el("span", { class: "mono" }, s.consumer)],
      ["timing", el("span", {}, timing(s.timing))],
      ["state", badge(s.state, { "data-testid": "detail-state" })],
      ["attempts", `${s.attempts}${s.maxAttempts ? ` / ${s.maxAttempts}` : ""} at occurrence ${s.occurrence}`],
      ["payload", el("pre", {}, JSON.stringify(s.payload, null, 2))],
      ["claimed until", when(s.claimUntil)],
      ["created", when(s.createdAt)],
      ["updated", when(s.updatedAt)],
    ]
    byId("schedule-detail").replaceChildren(
      ...terms.flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]),
    )
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
