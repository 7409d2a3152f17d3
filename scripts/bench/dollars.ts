/**
 * `npm run bench:dollars [-- results/bench.json]`: the billed cost of one million deliveries
 * for both systems, from a run's counted rows and its burst 10,000 rate, at Durable Objects' prices
 * (PRICES): delivered in bursts (the cost workload's batch of 1,000), and each alone in its alarm (its
 * lone deliveries, a request each). Prints a Markdown table for docs/benchmarks.md; no hand arithmetic.
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
// A delivery alone in its alarm: a claim record (slotwise) or an alarm's own reads for one job, and one request.
const loneRead = figure(/^cost$/, "rows read / lone delivery (its own alarm)")
const loneWritten = figure(/^cost$/, "rows written / lone delivery (its own alarm)")
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
  const duration = ((seconds * PRICES.gb) / M) * PRICES.gbSecondsPerMillion
  const rows = (rowsWritten: number, rowsRead: number) =>
    (rowsWritten / M) * PRICES.rowsWrittenPerMillion + (rowsRead / M) * PRICES.rowsReadPerMillion
  const batched = rows(rowsWritten, rowsRead) + duration
  const lone = rows((loneWritten[system] as number) * M, (loneRead[system] as number) * M) + duration
  return {
    system,
    row: [
      system,
      `${(rowsWritten / M).toLocaleString("en-US")} M: ${dollars((rowsWritten / M) * PRICES.rowsWrittenPerMillion)}`,
      `${(rowsRead / M).toLocaleString("en-US")} M: ${dollars((rowsRead / M) * PRICES.rowsReadPerMillion)}`,
      `${Math.round(seconds).toLocaleString("en-US")} s: ${dollars(duration)}`,
      dollars(batched),
      `${(loneWritten[system] as number).toLocaleString("en-US")} M: ${dollars(lone + PRICES.requestsPerMillion)}`,
    ],
  }
})
console.log(
  `From ${path.relative(process.cwd(), file)} (${run.date}${run.smoke ? ", a smoke run" : ""}); duration at ${burst.workload}'s rate.\n`,
)
console.log(
  "| system | rows written | rows read | duration (128 MB) | total, deliveries batched in alarms | total, each delivery alone in its alarm (rows written, then total with its request) |",
)
console.log("|---|---:|---:|---:|---:|---:|")
for (const { row } of lines) console.log(`| ${row.join(" | ")} |`)
