/**
 * `node scripts/bench/jobs-cpu.ts`: the CPU of slotwise's own JavaScript per run of a heartbeat, in Node's V8
 * with a D1 that answers at once (no I/O, no SQL: its answers are made before the measurement), so that only
 * slotwise's work is timed: the due jobs, the claim's and the releases' JSON, each run's boundary (span, timeout,
 * its one log line, built and not printed), the group commit. Prints one JSON line per N: µs a run, exclusive and
 * not. BENCH_SMOKE=1: fewer heartbeats. The jobs workload of `npm run bench` runs it and reports its figures.
 */

import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { CLAIM_TEXT_AT } from "../../src/infra/jobs/protocol/slot-claim.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const smoke = process.env.BENCH_SMOKE === "1"
const sizes = (process.env.BENCH_JOBS_CPU_N ?? "1,10,100,1000,10000").split(",").map(Number)

/** A D1 binding whose every answer is ready: the claim wins every job, the release releases every one. */
function instantD1(names: readonly string[], slot: number): D1Database {
  const won = names.map((name) => ({ name, last_run_slot: slot - MINUTE, hour_start: slot - (slot % HOUR) }))
  const released = names.map((name) => ({ name }))
  const answer = (text: string) => ({ results: text === CLAIM_TEXT_AT ? won : released, success: true, meta: {} })
  const statement = (text: string) => {
    const prepared = { bind: () => prepared, all: async () => answer(text), run: async () => answer(text) }
    return prepared
  }
  return {
    prepare: (text: string) => Object.assign(statement(text), { text }),
    batch: async (statements: Array<{ text: string }>) => statements.map((s) => answer(s.text)),
  } as unknown as D1Database
}

const silent = () => {}
const jobsOf = (n: number, exclusive: boolean): readonly Job[] =>
  Jobs.registry(
    Array.from({ length: n }, (_, i) =>
      Jobs.make({ name: `cpu.job-${i}`, cron: "* * * * *", exclusive, timeout: "1 minute", run: () => {} }),
    ),
    { plan: "paid" },
  )

async function measure(n: number, exclusive: boolean): Promise<number> {
  const list = jobsOf(n, exclusive)
  const names = list.map((job) => job.name)
  const beats = Math.max(3, Math.min(smoke ? 5 : 50, Math.ceil(20_000 / n)))
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < 3; round++) {
    let cpu = 0
    for (let b = 0; b < beats; b++) {
      const slot = Date.UTC(2026, 10, 30, 3, 0) + (round * beats + b) * MINUTE
      const env = { DB: instantD1(names, slot) } as never
      const before = process.cpuUsage()
      await beat(list, slot, env, { now: () => slot + 1_000 })
      const used = process.cpuUsage(before)
      cpu += used.user + used.system
    }
    best = Math.min(best, cpu / beats / n)
  }
  return best
}

const methods = ["log", "info", "warn", "error", "debug"] as const
const saved = methods.map((method) => console[method])
for (const method of methods) console[method] = silent
const results: Array<{ n: number; exclusiveUs: number; notExclusiveUs: number }> = []
for (const n of sizes) {
  results.push({ n, exclusiveUs: await measure(n, true), notExclusiveUs: await measure(n, false) })
}
methods.forEach((method, i) => {
  console[method] = saved[i] as never
})
for (const result of results) console.log(JSON.stringify(result))
