/**
 * `node scripts/bench/startup.ts`: the startup workload. `wrangler check startup` builds a Worker as `wrangler
 * deploy` would and profiles its global scope (its start-up) in a local workerd. Three Workers, in rounds, the
 * order turning from round to round: slotwise's example Worker (this repository's wrangler.toml), a hello-world
 * Worker (the floor every Worker pays: scripts/bench/startup/hello) and a Worker using the Agents SDK's scheduler
 * (scripts/bench/startup/agent). Each profile's active CPU is the time of its samples that are not idle, garbage
 * collection included, as wrangler prints it. On a shared machine a profile's samples also count the time its thread
 * waited for a CPU, so the ratios are taken within each round (the three Workers profiled one after another) and
 * their median is the figure. Prints one JSON line: per Worker the median round's active ms, its collection ms,
 * each round's active ms and the bundle's gzip KiB; and the median ratios. BENCH_SMOKE=1: one round; otherwise
 * BENCH_STARTUP_ROUNDS (default 3). The profiles are kept in results/startup/. `npm run bench` runs it.
 */

import { type SpawnSyncReturns, spawnSync } from "node:child_process"
import { mkdirSync, readFileSync } from "node:fs"
import path from "node:path"

export type StartupWorker = "example" | "hello" | "agent"

export interface StartupResult {
  workers: StartupWorkerResult[]
  /** Medians of each round's ratio of the two Workers' active ms. */
  exampleOverAgent: number
  exampleOverHello: number
  agentOverHello: number
}

export interface StartupWorkerResult {
  worker: StartupWorker
  activeMs: number
  gcMs: number
  rounds: number[]
  gzipKiB: number
}

const root = path.resolve(import.meta.dirname, "../..")
const out = path.join(root, "results", "startup")
const WORKERS: Record<StartupWorker, string> = {
  example: root,
  hello: path.join(import.meta.dirname, "startup", "hello"),
  agent: path.join(import.meta.dirname, "startup", "agent"),
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>
  samples: number[]
  timeDeltas: number[]
}

/** Active and garbage-collection ms of a profile: each sample's time (the delta before it) by its frame. */
export function activeOf(profile: CpuProfile): { activeMs: number; gcMs: number } {
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]))
  let active = 0
  let gc = 0
  profile.samples.forEach((id, i) => {
    const name = names.get(id)
    const us = profile.timeDeltas[i] ?? 0
    if (name === "(idle)") return
    active += us
    if (name === "(garbage collector)") gc += us
  })
  return { activeMs: active / 1000, gcMs: gc / 1000 }
}

/** Tries of one profile: wrangler gives a profile 10 s, which a machine with a load of 20 can miss. */
const TRIES = 3

function profileOnce(worker: StartupWorker, round: number): { activeMs: number; gcMs: number; gzipKiB: number } {
  const outfile = path.join(out, `${worker}-${round}.cpuprofile`)
  let run: SpawnSyncReturns<string> | undefined
  for (let attempt = 1; attempt <= TRIES && run?.status !== 0; attempt++) {
    run = spawnSync("npx", ["wrangler", "check", "startup", "--outfile", outfile], {
      cwd: WORKERS[worker],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0", NO_COLOR: "1" },
      encoding: "utf8",
    })
  }
  if (run?.status !== 0) throw new Error(`wrangler check startup (${worker}) failed:\n${run?.stdout}\n${run?.stderr}`)
  const gzip = /gzip: ([\d.]+) KiB/.exec(run.stdout)
  return {
    ...activeOf(JSON.parse(readFileSync(outfile, "utf8")) as CpuProfile),
    gzipKiB: gzip ? Number(gzip[1]) : Number.NaN,
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number

if (import.meta.main) {
  const rounds = process.env.BENCH_SMOKE === "1" ? 1 : Number(process.env.BENCH_STARTUP_ROUNDS || 3)
  mkdirSync(out, { recursive: true })
  const order: StartupWorker[] = ["example", "hello", "agent"]
  const seen: Record<StartupWorker, Array<{ activeMs: number; gcMs: number; gzipKiB: number }>> = {
    example: [],
    hello: [],
    agent: [],
  }
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < order.length; i++) {
      const worker = order[(i + round) % order.length] as StartupWorker
      seen[worker].push(profileOnce(worker, round))
    }
  }
  const workers = order.map((worker): StartupWorkerResult => {
    const results = seen[worker]
    const middle = results.find((r) => r.activeMs === median(results.map((each) => each.activeMs)))
    return {
      worker,
      activeMs: round1(middle?.activeMs ?? Number.NaN),
      gcMs: round1(middle?.gcMs ?? Number.NaN),
      rounds: results.map((r) => round1(r.activeMs)),
      gzipKiB: results[0]?.gzipKiB ?? Number.NaN,
    }
  })
  const ratio = (a: StartupWorker, b: StartupWorker) =>
    Math.round(median(seen[a].map((each, i) => each.activeMs / (seen[b][i]?.activeMs ?? Number.NaN))) * 100) / 100
  const result: StartupResult = {
    workers,
    exampleOverAgent: ratio("example", "agent"),
    exampleOverHello: ratio("example", "hello"),
    agentOverHello: ratio("agent", "hello"),
  }
  console.log(JSON.stringify(result))
}
