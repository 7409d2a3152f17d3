import type { HistoryRange } from "../../../schedules/contract/history.ts"
import { api } from "./api.ts"
import { byId, el, fill } from "./dom.ts"
import { fail } from "./session.ts"
import { streamCharts } from "./stream-charts.ts"

/** The range the open stream's charts show; gen drops an answer that arrives after a newer request. */
const shown = { range: "day" as HistoryRange, gen: 0 }

/** Charts the stream's deliveries, failures and lateness over the range picked. */
export async function loadStreamHistory(stream: string): Promise<void> {
  const gen = ++shown.gen
  try {
    const history = await api("streamHistory", { stream }, { query: { range: shown.range } })
    if (gen !== shown.gen) return
    fill(
      byId("stream-charts"),
      history.points.length ? streamCharts(history) : el("p", { class: "none" }, "No delivery settled in this range."),
    )
  } catch (error) {
    if (gen === shown.gen) fail(error)
  }
}

export function clearStreamHistory(): void {
  shown.gen++
  byId("stream-charts").replaceChildren()
}

/** The range buttons; `open` names the stream shown (null: none). */
export function initStreamHistory(open: () => string | null): void {
  for (const range of ["day", "month"] as const) {
    byId(`history-${range}`).addEventListener("click", () => {
      shown.range = range
      for (const other of ["day", "month"])
        byId(`history-${other}`).setAttribute("aria-pressed", String(other === range))
      const stream = open()
      if (stream !== null) void loadStreamHistory(stream)
    })
  }
}
