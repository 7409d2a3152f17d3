/**
 * `npm run bench:dollars [-- results/bench.json]`: the billed cost of one million deliveries
 * for both systems, from a run's counted rows and its burst 10,000 rate, at Durable Objects' prices
 * (PRICES). Prints a Markdown table for docs/benchmarks.md; no hand arithmetic.
 */

import { readFileSync } from "node:fs"
import path from "node:path"
import type { Figure, SystemName } from "./result.ts"

/**
 * Durable Objects on the Workers Paid plan, SQLite-backed storage billing, as published in 2025 on
 * Cloudflare's Durable Objects pricing page; the included monthly amounts are left out.
 */
export const PRICES = {
  rowsReadPerMillion: 0.001,
  rowsWrittenPerMillion: 1.0,
  requestsPerMillion: 0.15,
  gbSecondsPerMillion: 12.5,
  /** Duration is billed on 128 MB per active object. */
  gb: 0.125,
} as const

const SYSTEMS: readonly SystemName[] = ["slotwise", "agents"]
const file = process.argv[2] ?? path.resolve(import.meta.dirname, "../../results/bench.json")
const run = JSON.parse(readFileSync(file, "utf8")) as { date: string; smoke: boolean; figures: Figure[] }
const figure = (workload: RegExp, metric: string) => {
  const found = run.figures.find((f) => workload.test(f.workload) && f.metric === metric)
  if (!found) throw new Error(`${file}: no figure "${metric}" in ${workload.source}`)
  return found
}
const read = figure(/^cost$/, "rows read / delivery")
const written = figure(/^cost$/, "rows written / delivery")
// The largest burst: the rate a busy stream holds.
const burst = run.figures.findLast((f) => /^burst/.test(f.workload) && f.metric.startsWith("deliveries / s"))
if (!burst) throw new Error(`${file}: no burst rate`)

const M = 1_000_000
const dollars = (n: number) => `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`
const lines = SYSTEMS.map((system) => {
  const rowsRead = (read[system] as number) * M
  const rowsWritten = (written[system] as number) * M
  // Busy the whole burst: a delivery holds the object 1 / rate seconds.
  const seconds = M / (burst[system] as number)
  const cost = {
    read: (rowsRead / M) * PRICES.rowsReadPerMillion,
    written: (rowsWritten / M) * PRICES.rowsWrittenPerMillion,
    duration: ((seconds * PRICES.gb) / M) * PRICES.gbSecondsPerMillion,
    requests: PRICES.requestsPerMillion,
  }
  const batched = cost.read + cost.written + cost.duration
  return {
    system,
    row: [
      system,
      `${(rowsWritten / M).toLocaleString("en-US")} M: ${dollars(cost.written)}`,
      `${(rowsRead / M).toLocaleString("en-US")} M: ${dollars(cost.read)}`,
      `${Math.round(seconds).toLocaleString("en-US")} s: ${dollars(cost.duration)}`,
      dollars(batched),
      dollars(batched + cost.requests),
    ],
  }
})
console.log(
  `From ${path.relative(process.cwd(), file)} (${run.date}${run.smoke ? ", a smoke run" : ""}); duration at ${burst.workload}'s rate.\n`,
)
console.log(
  "| system | rows written | rows read | duration (128 MB) | total, deliveries batched in alarms | total, one alarm request per delivery |",
)
console.log("|---|---:|---:|---:|---:|---:|")
for (const { row } of lines) console.log(`| ${row.join(" | ")} |`)
