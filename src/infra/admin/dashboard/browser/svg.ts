/** Charts drawn by hand as SVG: elements built from data (text only as text nodes), sized by a viewBox. */

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

/** A chart of `height` named by `label`, with a hatch pattern of its own (its url passed to `draw`). */
export function chart(label: string, height: number, draw: (hatch: string) => SVGElement[]): SVGElement {
  const id = `hatch-${++charts}`
  const pattern = svg(
    "pattern",
    { id, width: 4, height: 4, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svg("line", { y2: 4, class: "hatch" }),
  )
  const view = { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": label, class: "chart" }
  return svg("svg", view, svg("defs", {}, pattern), ...draw(`url(#${id})`))
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
