import { applyD1Migrations, env } from "cloudflare:test"
import { beforeAll, it } from "vitest"
import { SetupClock } from "./lead.ts"
import { note, progress, SYSTEMS, type SystemName } from "./result.ts"
import { ROUNDS } from "./rounds.ts"
import { burst } from "./workloads/burst.ts"
import { pick } from "./workloads/common.ts"
import { cost } from "./workloads/cost.ts"
import { jobs } from "./workloads/jobs.ts"
import { limit } from "./workloads/limit.ts"
import { retry } from "./workloads/retry.ts"
import { scale } from "./workloads/scale.ts"
import { soak } from "./workloads/soak.ts"
import { steady } from "./workloads/steady.ts"
import { manyStreams } from "./workloads/streams.ts"

/**
 * slotwise's ScheduleStream and an Agents SDK Agent through the same workloads, one system at a
 * time, in one workerd. `npm run bench` (scripts/bench/run.ts) runs this file and prints the table.
 */

const smoke = env.BENCH_SMOKE === "1"
/** The bursts and many streams run in rounds (rounds.ts); the smoke run once. */
const rounds = pick(smoke, { smoke: 1, full: ROUNDS })
/** Each system's setup times so far: where to put T0 after the next setup. */
const clocks: Record<SystemName, SetupClock> = { slotwise: new SetupClock(), agents: new SetupClock() }

/** Which system goes first alternates from one workload to the next. */
let phase = 0
function order(workload: string): SystemName[] {
  const systems = phase++ % 2 === 0 ? [...SYSTEMS] : [...SYSTEMS].reverse()
  note(workload, `order: ${systems.join(" then ")}`)
  return systems
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.BENCH_MIGRATIONS)
  progress(smoke ? "smoke run (BENCH_SMOKE=1): small sizes" : "full run")
})

// First, so that the bursts' T0 can be placed from what these setups took.
it("cost", async () => {
  await cost(
    1_000,
    pick(smoke, { smoke: 100, full: 1_000 }),
    pick(smoke, { smoke: 3, full: 10 }),
    order("cost"),
    clocks,
  )
})

for (const n of pick(smoke, { smoke: [100], full: [1_000, 10_000] })) {
  it(`burst ${n}`, async () => {
    await burst(n, order(`burst ${n.toLocaleString("en-US")}`), clocks, rounds)
  })
}

it("many streams", async () => {
  const counts = pick(smoke, { smoke: [10], full: [10, 100] })
  await manyStreams(counts, pick(smoke, { smoke: 50, full: 1_000 }), order("many streams"), clocks, rounds)
})

it("steady", async () => {
  const count = pick(smoke, { smoke: 100, full: 1_000 })
  await steady(count, pick(smoke, { smoke: 3, full: 20 }), order(`steady ${count.toLocaleString("en-US")} x 1 s`))
})

it("retry", async () => {
  const n = pick(smoke, { smoke: 10, full: 100 })
  await retry(n, order(`retry ${n.toLocaleString("en-US")} (fail twice)`), clocks)
})

it("scale", async () => {
  await scale(pick(smoke, { smoke: [1_000], full: [1_000, 10_000, 100_000] }), pick(smoke, { smoke: 100, full: 2_000 }))
})

it("soak", async () => {
  await soak(pick(smoke, { smoke: 5_000, full: 100_000 }), pick(smoke, { smoke: 3, full: 5 }))
})

it("jobs", async () => {
  await jobs(
    pick(smoke, { smoke: [1, 10, 100], full: (env.BENCH_JOBS_N || "1,10,100,1000,10000").split(",").map(Number) }),
  )
})

it("limit", async () => {
  await limit(pick(smoke, { smoke: 320, full: 4_000 }), pick(smoke, { smoke: 1, full: 5 }))
})
