/** Charts drawn by hand as SVG: elements built from data (text only as text nodes), sized by a viewBox. */

import { el } from "./dom.ts"

/** Every chart's width in viewBox units; it scales to its panel's width. */
export const WIDTH = 960
export const HOUR = 3_600_000

export type Attributes = Readonly<Record<string, string | number>>

export function svg(tag: string, attributes: Attributes = {}, ...children: Array<Node | string>): SVGElement {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value))
  node.append(...children)
  return node
}

/** A mark and the text a pointer or a screen reader gets for it: its own <title>. */
export const titled = (title: string, attributes: Attributes, ...marks: SVGElement[]) =>
  svg("g", attributes, svg("title", {}, title), ...marks)

let charts = 0

/** One entry of a chart's legend: a sample of the mark (drawn with the chart's hatch) and what it means. */
export interface LegendEntry {
  name: string
  sample: (hatch: string) => SVGElement
}

/** What a chart says besides its marks: the legend of its shapes and a line or two of figures as text. */
export interface ChartText {
  legend?: readonly LegendEntry[]
  notes?: readonly string[]
}

/**
 * A chart of `height` under a visible title, with its legend and its figures as text below it; the SVG has
 * a hatch pattern of its own (its url passed to `draw`), which the legend's samples share.
 */
export function chart(
  title: string,
  height: number,
  draw: (hatch: string) => SVGElement[],
  { legend = [], notes = [] }: ChartText = {},
): HTMLElement {
  const id = `hatch-${++charts}`
  const pattern = svg(
    "pattern",
    { id, width: 4, height: 4, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svg("line", { y2: 4, class: "hatch" }),
  )
  const hatch = `url(#${id})`
  const view = { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": title, class: "chart" }
  const samples = legend.map(({ name, sample }) =>
    el(
      "li",
      { "data-testid": "legend-entry", "data-name": name },
      svg("svg", { viewBox: "0 0 16 16", class: "chart sample", "aria-hidden": "true" }, sample(hatch)),
      name,
    ),
  )
  return el(
    "figure",
    { class: "figure", "data-testid": "chart" },
    el("figcaption", { "data-testid": "chart-title" }, title),
    svg("svg", view, svg("defs", {}, pattern), ...draw(hatch)),
    samples.length ? el("ul", { class: "legend", "data-testid": "chart-legend" }, samples) : null,
    notes.map((note) => el("p", { class: "sub", "data-testid": "chart-note" }, note)),
  )
}

export const text = (x: number, y: number, value: string, anchor = "start") =>
  svg("text", { x, y, "text-anchor": anchor, class: "axis" }, value)

/** An hour in UTC as a mark's title names it: 2026-11-30 03:00 UTC. */
export const hourName = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`

/** A median and a max at `x`: a line from the one up to the other, and a dot at the median. */
export const whisker = (x: number, median: number, max: number): SVGElement[] => [
  svg("line", { x1: x, x2: x, y1: median, y2: max, class: "whisker" }),
  svg("circle", { cx: x, cy: median, r: 2.5, class: "dot" }),
]
