import type { Timing } from "../../../schedules/contract/spec.ts"
import { type Child, el } from "./dom.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const pad = (n: number) => String(n).padStart(2, "0")
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`

/** A time in UTC and in the viewer's local time (tables show the local one on a line of its own). */
export function when(ms: number | null | undefined): HTMLElement {
  if (ms === null || ms === undefined) return el("span", { class: "none" }, "—")
  const d = new Date(ms)
  const iso = d.toISOString()
  const local = `${localDay(d) === iso.slice(0, 10) ? "" : `${localDay(d)} `}${pad(d.getHours())}:${pad(d.getMinutes())}`
  return el(
    "time",
    { datetime: iso, title: relative(ms) },
    el("span", {}, `${iso.slice(0, 19).replace("T", " ")} UTC`),
    el("span", { class: "sep" }, " · "),
    el("span", { class: "local" }, `${local} local`),
  )
}

/** A span of time as a person reads it: 45 s, 12 min, 3 h, 2 d. */
export function span(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 90) return `${seconds} s`
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`
  if (seconds < 129600) return `${Math.round(seconds / 3600)} h`
  return `${Math.round(seconds / 86400)} d`
}

export function relative(ms: number, now = Date.now()): string {
  return ms >= now ? `in ${span(ms - now)}` : `${span(now - ms)} ago`
}

/** A configured duration, exactly: 30 s, 5 min, 1 d, 250 ms. */
export function duration(ms: number): string {
  if (ms % DAY === 0) return `${ms / DAY} d`
  if (ms % HOUR === 0) return `${ms / HOUR} h`
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`
  if (ms % 1000 === 0) return `${ms / 1000} s`
  return `${ms} ms`
}

/** A measured duration: 4 ms, 1.3 s, 2 min. */
export const elapsed = (ms: number): string =>
  ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : span(ms)

export function timing(t: Timing): Child {
  switch (t.kind) {
    case "at":
      return ["at ", when(t.atMs)]
    case "after":
      return `after ${duration(t.afterMs)}`
    case "every":
      return `every ${duration(t.everyMs)}`
    case "cron":
      return [el("span", { class: "mono" }, t.cron), el("div", { class: "sub" }, t.timezone)]
  }
}
