import type { LegendEntry } from "./svg.ts"
import { svg } from "./svg.ts"

/** What a job's mark shows: a slot's or an hour's outcome; an hour's is its worst (missed, failed, skipped, ran). */
export type MarkKind = "ran" | "failed" | "skipped" | "missed" | "paused" | "claimed" | "due" | "unknown"

/** A mark's box in viewBox units: x, y, width, height. */
export interface Box {
  x: number
  y: number
  w: number
  h: number
}

/**
 * Each kind its own shape, so a chart reads without colour: ran a solid block, failed a hatched one, skipped an
 * outline, missed a cross taller than the block, paused two bars (as a pause button), claimed a dashed outline, due a
 * short bar, unknown a dot.
 */
export function slotMark(kind: MarkKind, { x, y, w, h }: Box, hatch: string): SVGElement {
  const over = h * 0.3
  switch (kind) {
    case "missed":
      return svg("path", {
        d: `M${x} ${y - over}l${w} ${h + 2 * over}M${x + w} ${y - over}l${-w} ${h + 2 * over}`,
        class: "m-missed",
      })
    case "paused":
      return svg("path", {
        d: `M${x + w * 0.2} ${y}h${w * 0.2}v${h}h${-w * 0.2}zM${x + w * 0.6} ${y}h${w * 0.2}v${h}h${-w * 0.2}z`,
        class: "m-paused",
      })
    case "due":
      return svg("rect", { x, y: y + h * 0.8, width: w, height: h * 0.2, class: "m-due" })
    case "unknown":
      return svg("circle", { cx: x + w / 2, cy: y + h / 2, r: Math.min(w, h) / 6, class: "m-due" })
    case "failed":
      return svg("rect", { x, y, width: w, height: h, class: "m-failed", fill: hatch })
    default:
      return svg("rect", { x, y, width: w, height: h, class: `m-${kind}` })
  }
}

const SAMPLE: Box = { x: 3, y: 4, w: 10, h: 8 }

/** Legend entries for `kinds`, named as the chart's marks mean them. */
export const slotLegend = (names: Partial<Record<MarkKind, string>>): LegendEntry[] =>
  Object.entries(names).map(([kind, name]) => ({
    name: name as string,
    sample: (hatch: string) => slotMark(kind as MarkKind, SAMPLE, hatch),
  }))
