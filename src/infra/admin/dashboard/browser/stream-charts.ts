import type { StreamHistory } from "../../answers.ts"
import { elapsed } from "./format.ts"
import { chart, hourName, svg, text, titled, WIDTH, whisker } from "./svg.ts"

type Point = StreamHistory["points"][number]

/** A point's minute or hour: 2026-11-30 03:12 UTC, or 2026-11-30 03:00 UTC. */
const pointTime = (p: Point, stepMs: number) =>
  `${hourName(p.at).slice(0, stepMs < 3_600_000 ? 16 : 13)}${stepMs < 3_600_000 ? "" : ":00"} UTC`

/** "12 delivered", or "12 delivered (3 backfilled)": a backfill's deliveries are shown apart, and are not lateness. */
const delivered = (n: number, backfilled: number) =>
  `${n} delivered${backfilled > 0 ? ` (${backfilled} backfilled, not counted as late)` : ""}`

const describe = (p: Point, stepMs: number) =>
  `${pointTime(p, stepMs)}: ${delivered(p.delivered, p.backfilled)} · ${p.retried} retried · ${p.failed} failed` +
  (p.lateMaxMs === null
    ? ""
    : ` · late median ${elapsed(p.lateMedianMs ?? 0)}, p99 ${elapsed(p.lateP99Ms ?? 0)}, max ${elapsed(p.lateMaxMs)}`)

/**
 * Deliveries above the axis (solid), retries (hatched) and failures (solid, darker) below it, per minute or
 * hour; and each one's lateness on a log scale: a dot at the median, a tick at p99, a line up to the max.
 */
export function streamCharts(history: StreamHistory): HTMLElement[] {
  const { stepMs, points, now } = history
  const slots = history.range === "day" ? 1_440 : 720
  const first = now - (now % stepMs) - (slots - 1) * stepMs
  const step = WIDTH / slots
  const x = (at: number) => ((at - first) / stepMs) * step
  const w = Math.max(1.5, step - 0.4)
  const up = Math.max(1, ...points.map((p) => p.delivered))
  const down = Math.max(1, ...points.map((p) => p.retried + p.failed))
  const span = history.range === "day" ? "24 h" : "30 days"
  const per = history.range === "day" ? "minute" : "hour"
  const ends = (y: number) => [text(0, y, `${span} ago`), text(WIDTH, y, "now", "end")]
  const total = (key: "delivered" | "backfilled" | "retried" | "failed") => points.reduce((n, p) => n + p[key], 0)
  const counts = chart(
    `Deliveries, retries and failures of ${history.stream} per ${per}, over ${span}`,
    104,
    (hatch) => [
      svg("line", { x2: WIDTH, y1: 56, y2: 56, class: "axis-line" }),
      ...points.map((p) => {
        const h = {
          delivered: (p.delivered / up) * 50,
          retried: (p.retried / down) * 34,
          failed: (p.failed / down) * 34,
        }
        const attributes = {
          "data-testid": "delivery-mark",
          "data-at": p.at,
          "data-delivered": p.delivered,
          "data-backfilled": p.backfilled,
          "data-retried": p.retried,
          "data-failed": p.failed,
        }
        return titled(
          describe(p, stepMs),
          attributes,
          svg("rect", { x: x(p.at), y: 56 - h.delivered, width: w, height: h.delivered, class: "m-ran" }),
          svg("rect", { x: x(p.at), y: 56, width: w, height: h.retried, fill: hatch, class: "m-failed" }),
          svg("rect", { x: x(p.at), y: 56 + h.retried, width: w, height: h.failed, class: "m-stopped" }),
        )
      }),
      text(0, 8, `top: ${up} delivered in one ${per}`),
      ...ends(102),
    ],
    {
      legend: [
        {
          name: "delivered (above the line)",
          sample: () => svg("rect", { x: 3, y: 4, width: 10, height: 8, class: "m-ran" }),
        },
        {
          name: "retried (hatched, below)",
          sample: (hatch) => svg("rect", { x: 3, y: 4, width: 10, height: 8, fill: hatch, class: "m-failed" }),
        },
        {
          name: "failed (solid, below)",
          sample: () => svg("rect", { x: 3, y: 4, width: 10, height: 8, class: "m-stopped" }),
        },
      ],
      notes: [
        `Over ${span}: ${delivered(total("delivered"), total("backfilled"))} · ${total("retried")} retried · ${total("failed")} failed`,
      ],
    },
  )
  const late = points.filter((p) => p.lateMaxMs !== null)
  const most = Math.max(0, ...late.map((p) => p.lateMaxMs ?? 0))
  const top = Math.log10(2 + most)
  const y = (ms: number) => 78 - (Math.log10(1 + ms) / top) * 68
  const newest = late.at(-1)
  const worst = late.reduce<Point | undefined>((a, p) => ((p.lateP99Ms ?? 0) > (a?.lateP99Ms ?? -1) ? p : a), undefined)
  const lateNotes = newest
    ? [
        `Latest ${per} with deliveries (${pointTime(newest, stepMs)}): ` +
          `median ${elapsed(newest.lateMedianMs ?? 0)} · p99 ${elapsed(newest.lateP99Ms ?? 0)} · max ${elapsed(newest.lateMaxMs ?? 0)}`,
        `Highest p99 over ${span}: ${elapsed(worst?.lateP99Ms ?? 0)}, in the ${per} of ${pointTime(worst as Point, stepMs)}`,
      ]
    : [`No delivery over ${span}`]
  const lateness = chart(
    `Lateness of ${history.stream}'s deliveries against their due times, log scale`,
    96,
    () => [
      ...late.map((p) => {
        const cx = x(p.at) + w / 2
        const attributes = {
          "data-testid": "lateness-mark",
          "data-at": p.at,
          "data-median": p.lateMedianMs ?? "",
          "data-max": p.lateMaxMs ?? "",
        }
        const p99 = y(p.lateP99Ms ?? 0)
        const tick = svg("line", { x1: cx - 2, x2: cx + 2, y1: p99, y2: p99, class: "whisker" })
        return titled(
          describe(p, stepMs),
          attributes,
          tick,
          ...whisker(cx, y(p.lateMedianMs ?? 0), y(p.lateMaxMs ?? 0)),
        )
      }),
      text(0, 8, `late up to ${elapsed(most)} (log scale)`),
      ...ends(94),
    ],
    {
      legend: [
        { name: "median", sample: () => svg("circle", { cx: 8, cy: 8, r: 3, class: "dot" }) },
        { name: "p99", sample: () => svg("line", { x1: 4, x2: 12, y1: 8, y2: 8, class: "whisker" }) },
        { name: "up to the max", sample: () => svg("line", { x1: 8, x2: 8, y1: 2, y2: 14, class: "whisker" }) },
      ],
      notes: lateNotes,
    },
  )
  return [counts, lateness]
}
