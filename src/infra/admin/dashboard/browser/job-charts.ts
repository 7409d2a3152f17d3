import type { JobHistory } from "../../json.ts"
import { elapsed } from "./format.ts"
import { type Attributes, chart, HOUR, hourName, svg, text, titled, WIDTH, whisker } from "./svg.ts"

type Hour = JobHistory["hours"][number]
/** What an hour's mark shows, worst first: a missed slot stands out over a failure, a failure over a skip. */
export type SlotKind = "missed" | "failed" | "skipped" | "ran" | "due"

export const kindOf = (h: Hour): SlotKind =>
  h.missed > 0 ? "missed" : h.failed + h.timedOut > 0 ? "failed" : h.skipped > 0 ? "skipped" : h.ran > 0 ? "ran" : "due"

/**
 * Each kind its own shape, so the strip reads without colour: ran a solid block, failed a hatched one,
 * skipped an outline, missed a cross taller than the strip, due (no outcome yet) a short bar.
 */
function mark(kind: SlotKind, x: number, w: number, hatch: string): SVGElement {
  if (kind === "missed") return svg("path", { d: `M${x} 2l${w} 32M${x + w} 2l${-w} 32`, class: "m-missed" })
  if (kind === "due") return svg("rect", { x, y: 24, width: w, height: 4, class: "m-due" })
  const fill: Attributes = kind === "failed" ? { fill: hatch } : {}
  return svg("rect", { x, y: 8, width: w, height: 20, class: `m-${kind}`, ...fill })
}

const describe = (h: Hour) =>
  `${hourName(h.hour)}: ${h.due} due · ran ${h.ran} · failed ${h.failed} · timed out ${h.timedOut} · skipped ${h.skipped} · missed ${h.missed}` +
  (h.medianMs === null ? "" : ` · median ${elapsed(h.medianMs)} · max ${elapsed(h.maxMs ?? 0)}`)

/** The strip of the job's hours and its durations over the same days; x is the hour. */
export function jobCharts(history: JobHistory): SVGElement[] {
  const hours = history.days * 24
  const first = history.now - (history.now % HOUR) - (hours - 1) * HOUR
  const step = WIDTH / hours
  const x = (hour: number) => ((hour - first) / HOUR) * step
  const w = Math.max(1, step - 1)
  // Each midnight (UTC) in the window, labelled with its date.
  const midnight = Math.ceil(first / (24 * HOUR)) * 24 * HOUR
  const days = Array.from({ length: history.days }, (_, d) => midnight + d * 24 * HOUR)
  const strip = chart(`Slots of ${history.job}, by hour, over ${history.days} days`, 68, (hatch) => [
    ...history.hours.map((h) =>
      titled(
        describe(h),
        { "data-testid": "slot-mark", "data-hour": h.hour, "data-kind": kindOf(h) },
        mark(kindOf(h), x(h.hour), w, hatch),
      ),
    ),
    ...days.map((day) => text(x(day), 46, hourName(day).slice(5, 10))),
    // The legend: each kind's own mark, smaller, and its name.
    ...(["ran", "failed", "skipped", "missed"] as const).flatMap((kind, i) => [
      svg("g", { transform: `translate(${WIDTH - 320 + i * 80} 52) scale(0.4)` }, mark(kind, 0, 12, hatch)),
      text(WIDTH - 312 + i * 80, 64, kind),
    ]),
  ])
  const timed = history.hours.filter((h) => h.medianMs !== null)
  const top = Math.max(1, ...timed.map((h) => h.maxMs ?? 0))
  const y = (ms: number) => 76 - (ms / top) * 66
  const durations = chart(`Duration of ${history.job}'s runs, median and max per hour`, 84, () => [
    svg("polyline", {
      points: timed.map((h) => `${x(h.hour) + w / 2},${y(h.medianMs ?? 0)}`).join(" "),
      class: "line",
    }),
    ...timed.map((h) => {
      const cx = x(h.hour) + w / 2
      const attributes = {
        "data-testid": "duration-mark",
        "data-hour": h.hour,
        "data-median": h.medianMs ?? "",
        "data-max": h.maxMs ?? "",
      }
      return titled(describe(h), attributes, ...whisker(cx, y(h.medianMs ?? 0), y(h.maxMs ?? 0)))
    }),
    text(0, 8, `max ${elapsed(top)}`),
    text(0, 84, "0"),
  ])
  return [strip, durations]
}
