/**
 * `npm run bench`: runs scripts/bench/suite.bench.ts in workerd (vitest + @cloudflare/vitest-plugin),
 * shows its progress, then prints one table of both systems' figures and writes results/bench.json
 * (and the whole vitest output to results/bench.log); then the CPU profile of the burst (profile.ts).
 * BENCH_SMOKE=1: the small CI run.
 */

import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { createInterface } from "node:readline"
import { BUDGETS, overBudget } from "./budgets.ts"
import { derived } from "./derived.ts"
import { type Figure, type Note, PROGRESS, RESULT, type Result } from "./result.ts"
import type { StartupResult } from "./startup.ts"
import { ratio, table } from "./table.ts"

const root = path.resolve(import.meta.dirname, "../..")
const results = path.join(root, "results")
const smoke = process.env.BENCH_SMOKE === "1"
const started = Date.now()
const log: string[] = []
const figures: Figure[] = []
const notes: Note[] = []

const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes
const plain = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, "")

function read(line: string): void {
  const text = plain(line)
  log.push(text)
  const result = text.indexOf(RESULT)
  if (result >= 0) {
    const parsed = JSON.parse(text.slice(result + RESULT.length)) as Result
    if (parsed.type === "figure") figures.push(parsed)
    else notes.push(parsed)
    return
  }
  const progress = text.indexOf(PROGRESS)
  if (progress >= 0) console.log(`[bench ${elapsed()}] ${text.slice(progress + PROGRESS.length)}`)
  else if (/\bFAIL\b|Error:/.test(text)) console.error(`[bench ${elapsed()}] ${text.trim()}`)
}

/** jobs-cpu.ts's µs a run, as figures of the jobs workload. */
function jobsCpu(): Figure[] {
  console.log(`[bench ${elapsed()}] jobs: slotwise's CPU a run, in Node (scripts/bench/jobs-cpu.ts)`)
  const sizes = smoke ? "1,10,100,1000" : "1,10,100,1000,10000"
  const cpu = spawnSync("node", [path.join(import.meta.dirname, "jobs-cpu.ts")], {
    cwd: root,
    env: { ...process.env, BENCH_JOBS_CPU_N: sizes },
    encoding: "utf8",
  })
  if (cpu.status !== 0) {
    console.error(`[bench] FAILED: jobs-cpu.ts: ${cpu.stderr}`)
    return []
  }
  return cpu.stdout
    .trim()
    .split("\n")
    .flatMap((line) => {
      const { n, exclusiveUs, notExclusiveUs } = JSON.parse(line) as Record<string, number>
      const label = (n as number).toLocaleString("en-US")
      const metric = "CPU µs / run (Node's V8, D1 answering at once)"
      const row = (workload: string, us: number): Figure => ({
        type: "figure",
        workload,
        metric,
        slotwise: Math.round(us * 10) / 10,
        agents: null,
      })
      return [
        row(`jobs ${label} exclusive`, exclusiveUs as number),
        row(`jobs ${label} not exclusive`, notExclusiveUs as number),
      ]
    })
}

/** startup.ts's profiles of three Workers' start-up (`wrangler check startup`), as figures of the startup workload. */
function startup(): Figure[] {
  console.log(`[bench ${elapsed()}] startup: wrangler check startup of three Workers (scripts/bench/startup.ts)`)
  const run = spawnSync("node", [path.join(import.meta.dirname, "startup.ts")], { cwd: root, encoding: "utf8" })
  if (run.status !== 0) {
    console.error(`[bench] FAILED: startup.ts: ${run.stderr}`)
    return []
  }
  const result = JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as StartupResult
  const of = (worker: string) => result.workers.find((each) => each.worker === worker)
  const [example, hello, agent] = [of("example"), of("hello"), of("agent")]
  const rounds = example?.rounds.length ?? 0
  const workload = "startup (wrangler check startup: slotwise's example Worker, the Agents SDK's Worker)"
  const row = (metric: string, slotwise: number | undefined, agents: number | undefined): Figure => ({
    type: "figure",
    workload,
    metric,
    slotwise: slotwise ?? null,
    agents: agents ?? null,
  })
  return [
    row(`active CPU ms, median of ${rounds}`, example?.activeMs, agent?.activeMs),
    row("  of which garbage collection ms", example?.gcMs, agent?.gcMs),
    row(`hello-world Worker's active CPU ms (the floor), median of ${rounds}`, hello?.activeMs, hello?.activeMs),
    row(
      `active CPU / the hello-world floor's, median of ${rounds} rounds`,
      result.exampleOverHello,
      result.agentOverHello,
    ),
    row(`slotwise / agents active CPU, median of ${rounds} rounds`, result.exampleOverAgent, undefined),
    row("bundle KiB gzip (the whole upload)", example?.gzipKiB, agent?.gzipKiB),
  ]
}

const version = (pkg: string) =>
  (JSON.parse(readFileSync(path.join(root, "node_modules", pkg, "package.json"), "utf8")) as { version: string })
    .version

console.log(`[bench ${elapsed()}] ${smoke ? "smoke run (BENCH_SMOKE=1)" : "full run"}: starting vitest in workerd`)
const args = ["vitest", "run", "--config", "scripts/bench/vitest.config.ts", "scripts/bench/suite.bench.ts"]
const child = spawn("npx", args, {
  cwd: root,
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0", NO_COLOR: "1" },
  stdio: ["ignore", "pipe", "pipe"],
})
createInterface({ input: child.stdout }).on("line", read)
createInterface({ input: child.stderr }).on("line", read)
const code = await new Promise<number>((resolve) => child.on("close", (status) => resolve(status ?? 1)))

// The jobs workload's CPU, in Node's V8 with D1 answering at once (jobs-cpu.ts): workerd's clocks stand still while a heartbeat computes.
if (code === 0) figures.push(...jobsCpu(), ...startup())
figures.push(...derived(figures))
const wallMs = Date.now() - started
mkdirSync(results, { recursive: true })
writeFileSync(path.join(results, "bench.log"), `${log.join("\n")}\n`)
const report = {
  ok: code === 0,
  smoke,
  date: new Date(started).toISOString(),
  wallMs,
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
  },
  versions: {
    agents: version("agents"),
    vitest: version("vitest"),
    "@cloudflare/vitest-plugin": version("@cloudflare/vitest-plugin"),
    workerd: version("workerd"),
  },
  figures: figures.map((row) => ({ ...row, ratio: ratio(row) })),
  notes,
}
writeFileSync(path.join(results, "bench.json"), `${JSON.stringify(report, null, 2)}\n`)

if (figures.length > 0) {
  console.log(`\n${table(figures)}\n`)
  for (const { workload, text } of notes) console.log(`- ${workload}: ${text}`)
}
console.log(
  `\n[bench] ${(wallMs / 1000).toFixed(1)} s on ${report.machine.cpus} cpus; results/bench.json, results/bench.log`,
)
const over = code === 0 ? overBudget(figures) : []
if (code === 0) {
  console.log(over.length === 0 ? `[bench] every count within its budget (${BUDGETS.length} budgets)` : "")
  for (const line of over) console.error(`[bench] OVER BUDGET: ${line}`)
}
if (code !== 0) {
  // vitest's own report of the failure, or the end of its output.
  const failed = log.findIndex((line) => /Failed Tests|Unhandled Error/.test(line))
  console.error(log.slice(failed >= 0 ? failed : -60).join("\n"))
  console.error(`[bench] FAILED: vitest exited with ${code}; the figures above (if any) are partial`)
}
// The CPU profile of the burst (profile.ts), so that it cannot rot: it fails when it took no sample of a tick.
console.log(`\n[bench ${elapsed()}] the CPU profile of the burst (npm run bench:profile)`)
const profiled = spawnSync("node", [path.join(import.meta.dirname, "profile.ts")], { cwd: root, stdio: "inherit" })
if (profiled.status !== 0) console.error("[bench] FAILED: the CPU profile of the burst")
process.exit(code !== 0 ? code : over.length > 0 || profiled.status !== 0 ? 1 : 0)
