/**
 * How much CPU validating a schedule definition costs: a cron that never fires, ordinary crons,
 * and an ordinary cron re-checked with its witness day (what the stream does after an admin PUT).
 * A measurement to read, not a test: `npx node --experimental-transform-types scripts/measure/validation-cost.ts`.
 */
import { performance } from "node:perf_hooks"
import { checkDefinition } from "../../src/infra/schedules/contract/definition-check.ts"

const ROUNDS = 200
const known = () => true

function cost(cron: string, timezone: string, witnessed = false) {
  const definition = { id: "cost", consumer: "c", cron, timezone }
  const firesOn = witnessed ? checkDefinition(definition, Date.now(), known).firesOn : undefined
  const times: number[] = []
  let refused = false
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now()
    try {
      checkDefinition(definition, Date.now(), known, firesOn)
    } catch {
      refused = true
    }
    times.push(performance.now() - start)
  }
  const sorted = times.slice(1).sort((a, b) => a - b)
  return { first: times[0] as number, median: sorted[Math.floor(sorted.length / 2)] as number, refused }
}

// Loads croner and the runtime's timezone data once, so `first` is each pattern's own cold cost.
cost("0 9 * * *", "Europe/Berlin")

for (const [cron, timezone, witnessed] of [
  ["0 0 31 2 *", "UTC", false],
  ["0 0 31 2 *", "Europe/Berlin", false],
  ["0 0 29 2 1", "UTC", false],
  ["0 9 * * 1-5", "Europe/Berlin", false],
  ["0 0 29 2 *", "UTC", false],
  ["0 0 29 2 *", "UTC", true],
] as const) {
  const { first, median, refused } = cost(cron, timezone, witnessed)
  const how = `${refused ? "refused " : "accepted"}${witnessed ? ", witness given" : ""}`
  console.log(
    `${cron.padEnd(12)} ${timezone.padEnd(14)} ${how.padEnd(24)} first ${first.toFixed(2)} ms, median of ${ROUNDS - 1} ${median.toFixed(3)} ms`,
  )
}
