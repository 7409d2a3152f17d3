import type { ScheduleView } from "../../answers.ts"
import { api } from "./api.ts"
import { byId } from "./dom.ts"
import { when } from "./format.ts"
import { act, fail } from "./session.ts"

/** The open schedule the backfill form acts on, and the range its preview counted (Backfill waits for one). */
const form = { stream: null as string | null, id: null as string | null, previewed: null as string | null }

/** A datetime-local value (the viewer's local time) as epoch milliseconds, or undefined when empty or invalid. */
const instant = (input: HTMLInputElement) => {
  const ms = input.value ? new Date(input.value).getTime() : Number.NaN
  return Number.isFinite(ms) ? ms : undefined
}

const range = () => ({ from: instant(byId("backfill-from")), to: instant(byId("backfill-to")) })

/** Shows the form under a recurring schedule's detail (a one-shot has no past occurrences); hides it otherwise. */
export function showBackfill(stream: string, s: ScheduleView): void {
  const recurring = s.timing.kind === "every" || s.timing.kind === "cron"
  const changed = form.stream !== stream || form.id !== s.id
  Object.assign(form, { stream, id: s.id })
  byId("backfill-form").hidden = !recurring
  if (!changed) return
  form.previewed = null
  byId("backfill-count").textContent = ""
  byId<HTMLButtonElement>("backfill-run").disabled = true
}

/** Asks the stream to count the occurrences the range names (dryRun), and enables Backfill for that range. */
async function preview(): Promise<void> {
  const { stream, id } = form
  const { from, to } = range()
  if (stream === null || id === null) return
  const count = byId("backfill-count")
  if (from === undefined || to === undefined) {
    count.textContent = "Give both ends of the range."
    return
  }
  try {
    const { backfill } = await api("backfill", { stream, id }, { body: { from, to, dryRun: true } })
    count.replaceChildren(
      `${backfill.count} occurrence${backfill.count === 1 ? "" : "s"}`,
      ...(backfill.firstAt === null ? [] : [" from ", when(backfill.firstAt), " to ", when(backfill.lastAt)]),
    )
    form.previewed = backfill.count > 0 ? JSON.stringify({ from, to }) : null
    byId<HTMLButtonElement>("backfill-run").disabled = backfill.count === 0
  } catch (error) {
    count.textContent = ""
    form.previewed = null
    byId<HTMLButtonElement>("backfill-run").disabled = true
    fail(error)
  }
}

/** Wires the form: Preview counts, Backfill (once the same range was previewed) confirms and creates them. */
export function initBackfill(after: () => Promise<unknown>): void {
  const reset = () => {
    form.previewed = null
    byId<HTMLButtonElement>("backfill-run").disabled = true
    byId("backfill-count").textContent = ""
  }
  byId("backfill-from").addEventListener("input", reset)
  byId("backfill-to").addEventListener("input", reset)
  byId("backfill-preview").addEventListener("click", () => void preview())
  byId("backfill-form").addEventListener("submit", (event) => {
    event.preventDefault()
    const { stream, id } = form
    const { from, to } = range()
    if (stream === null || id === null || from === undefined || to === undefined) return
    if (form.previewed !== JSON.stringify({ from, to })) return
    const count = byId("backfill-count").textContent ?? ""
    void act(
      `Backfill ${id} in stream ${stream}: deliver ${count.split(" from ")[0]} again, each with a key of its own?`,
      () => api("backfill", { stream, id }, { body: { from, to } }),
      (r) => `backfilled ${id}: ${r.backfill.count} occurrence${r.backfill.count === 1 ? "" : "s"} queued`,
      async () => {
        reset()
        await after()
      },
    )
  })
}
