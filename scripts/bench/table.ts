import type { Figure } from "./result.ts"

/** slotwise / agents, or null when either is missing or the agents figure is 0. */
export function ratio(row: Figure): number | null {
  if (row.slotwise === null || row.agents === null) return null
  if (row.agents === 0) return row.slotwise === 0 ? 1 : null
  return Math.round((row.slotwise / row.agents) * 100) / 100
}

/** Thousands separated; two decimals at most, or two significant digits below 1 (0.003 stays 0.003). */
function number(n: number | null): string {
  if (n === null || Number.isNaN(n)) return "—"
  const small = n !== 0 && Math.abs(n) < 1
  return n.toLocaleString("en-US", small ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 2 })
}

/**
 * One Markdown table of every figure: workload, metric, both systems and their ratio; the
 * workload is named on its first row only. Numbers right-aligned, columns padded for a terminal.
 */
export function table(rows: readonly Figure[]): string {
  const header = ["workload", "metric", "slotwise", "agents", "slotwise/agents"]
  let previous = ""
  const cells = rows.map((row) => {
    const workload = row.workload === previous ? "" : row.workload
    previous = row.workload
    return [workload, row.metric, number(row.slotwise), number(row.agents), number(ratio(row))]
  })
  const widths = header.map((title, c) => Math.max(title.length, ...cells.map((line) => (line[c] as string).length)))
  const right = (c: number) => c >= 2
  const pad = (text: string, c: number) =>
    right(c) ? text.padStart(widths[c] as number) : text.padEnd(widths[c] as number)
  const line = (values: readonly string[]) => `| ${values.map(pad).join(" | ")} |`
  const rule = `|${widths.map((w, c) => (right(c) ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`
  return [line(header), rule, ...cells.map(line)].join("\n")
}
