/**
 * `npm run bench:profile`: a CPU profile of slotwise's real-time burst inside workerd. Runs
 * scripts/bench/profile.bench.ts with workerd's inspector on, and, when that test asks (a local
 * HTTP hook), starts and stops the profiler over the inspector's WebSocket (the DevTools
 * protocol's Profiler domain). Writes results/burst.cpuprofile and results/profile.json, and prints
 * where the time goes per delivery (buckets.ts). Fails when the profile holds no sample of a tick.
 * BENCH_PROFILE_N sets the burst (default 1,000; BENCH_SMOKE=1: 100); BENCH_PROFILE_TICKS=1 profiles
 * the same number delivered by ticks back to back (the limit workload's path) instead.
 */

import { spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { createInterface } from "node:readline"
import { freePort } from "../dev/ports.ts"
import { breakdown, breakdownTable, type CpuProfile } from "./buckets.ts"
import { PROGRESS } from "./result.ts"

const root = path.resolve(import.meta.dirname, "../..")
const results = path.join(root, "results")
const n = Number(process.env.BENCH_PROFILE_N || (process.env.BENCH_SMOKE === "1" ? 100 : 1_000))
/** The sampling interval, µs: fine enough for a delivery of about 100 µs. */
const SAMPLING_US = 50

/** One DevTools protocol session over the inspector's WebSocket. */
class Inspector {
  private next = 0
  private readonly waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>()

  private readonly socket: WebSocket

  private constructor(socket: WebSocket) {
    this.socket = socket
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown }
      if (message.id !== undefined) this.waiting.get(message.id)?.(message)
    })
  }

  /** Connects to the runner Worker's target of workerd's inspector (its /json list). */
  static async connect(port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Array<{
      id: string
      title?: string
      webSocketDebuggerUrl: string
    }>
    const runner = targets.find((t) => /runner/.test(`${t.id} ${t.title}`)) ?? targets[0]
    if (!runner) throw new Error(`no inspector target on port ${port}`)
    const socket = new WebSocket(runner.webSocketDebuggerUrl)
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true })
      socket.addEventListener("error", reject, { once: true })
    })
    return new Inspector(socket)
  }

  async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.next
    const answer = new Promise<{ result?: unknown; error?: unknown }>((resolve) => this.waiting.set(id, resolve))
    this.socket.send(JSON.stringify({ id, method, params }))
    const { result, error } = await answer
    this.waiting.delete(id)
    if (error) throw new Error(`${method}: ${JSON.stringify(error)}`)
    return result as T
  }

  close(): void {
    this.socket.close()
  }
}

const inspectorPort = await freePort()
let inspector: Inspector | undefined
let profile: CpuProfile | undefined
let burst: { deliveries: number; spanMs: number; duplicates: number } | undefined
/** The isolate's heap at the end: the test runtime's own modules live in it too, and a full collection walks all of it. */
let heap: { usedSize: number; totalSize: number } | undefined

const hook = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", async () => {
    try {
      if (req.url === "/start") {
        inspector = await Inspector.connect(inspectorPort)
        await inspector.send("Profiler.enable")
        await inspector.send("Profiler.setSamplingInterval", { interval: SAMPLING_US })
        await inspector.send("Profiler.start")
      } else if (req.url === "/stop" && inspector) {
        profile = (await inspector.send<{ profile: CpuProfile }>("Profiler.stop")).profile
        heap = await inspector.send<{ usedSize: number; totalSize: number }>("Runtime.getHeapUsage")
        burst = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        inspector.close()
      } else throw new Error(`unexpected ${req.url}`)
      res.writeHead(200).end("ok")
    } catch (error) {
      res.writeHead(500).end(String(error))
    }
  })
})
hook.listen(0, "127.0.0.1")
await new Promise((resolve) => hook.once("listening", resolve))

console.log(`[profile] burst ${n} under the CPU profiler (inspector port ${inspectorPort})`)
const log: string[] = []
// --inspect: the Workers pool opens workerd's inspector on that port (it requires one file at a time).
const args = ["vitest", "run", "--config", "scripts/bench/vitest.config.ts", "--no-file-parallelism"]
args.push(`--inspect=127.0.0.1:${inspectorPort}`, "scripts/bench/profile.bench.ts")
const child = spawn("npx", args, {
  cwd: root,
  env: {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    FORCE_COLOR: "0",
    NO_COLOR: "1",
    BENCH_PROFILE_HOOK: `http://127.0.0.1:${(hook.address() as AddressInfo).port}`,
    BENCH_PROFILE_N: String(n),
  },
  stdio: ["ignore", "pipe", "pipe"],
})
const read = (line: string) => {
  log.push(line)
  const at = line.indexOf(PROGRESS)
  if (at >= 0) console.log(`[profile] ${line.slice(at + PROGRESS.length)}`)
}
createInterface({ input: child.stdout }).on("line", read)
createInterface({ input: child.stderr }).on("line", read)
const code = await new Promise<number>((resolve) => child.on("close", (status) => resolve(status ?? 1)))
hook.close()

if (code !== 0 || !profile || !burst) {
  console.error(log.slice(-60).join("\n"))
  console.error(`[profile] FAILED: vitest exited with ${code}${profile ? "" : "; no profile was taken"}`)
  process.exit(1)
}
mkdirSync(results, { recursive: true })
writeFileSync(path.join(results, "burst.cpuprofile"), JSON.stringify(profile))
const result = breakdown(profile)
writeFileSync(
  path.join(results, "profile.json"),
  `${JSON.stringify({ n, ticks: process.env.BENCH_PROFILE_TICKS === "1", samplingUs: SAMPLING_US, burst, heap, ...result }, null, 2)}\n`,
)
console.log(
  `\nburst ${n}: ${burst.spanMs} ms from T0 to the last delivery; profile window ${result.windowMs.toFixed(1)} ms,`,
)
console.log(`${result.samples} samples (${result.tickSamples} inside a tick), every ${SAMPLING_US} µs`)
if (heap)
  console.log(
    `heap at the end: ${(heap.usedSize / 2 ** 20).toFixed(1)} MiB used of ${(heap.totalSize / 2 ** 20).toFixed(1)}\n`,
  )
console.log(breakdownTable(result, burst.deliveries))
console.log("\n[profile] results/burst.cpuprofile, results/profile.json")
if (result.tickSamples === 0) {
  console.error("[profile] FAILED: the profile holds no sample inside a tick")
  process.exit(1)
}
