/**
 * `npm start`: local D1 migrations, `wrangler dev`, and the every-minute heartbeat that
 * `wrangler dev` does not fire by itself (the package's `slotwise-heartbeat`, in process).
 *
 *   npm start                      run until Ctrl+C
 *   npm start -- --once            stop after the first heartbeat
 *   SLOTWISE_DEV_BEATS=3 npm start stop after 3 heartbeats
 *   PORT=8788 npm start            another port (default 8787); workerd's inspector follows it (9230)
 */

import { setTimeout as sleep } from "node:timers/promises"
import { DEFAULT_CRON, runHeartbeats } from "../bin/local-heartbeat.js"
import { isListening, waitForHealth } from "./dev/health.ts"
import { describe, say, warn } from "./dev/log.ts"
import { inspectorPort } from "./dev/ports.ts"
import { type DevContext, prepare, prepareSteps } from "./dev/prepare.ts"
import { seedDemo } from "./dev/seed.ts"
import { devArgs, spawnWrangler, stopWranglers } from "./dev/wrangler.ts"

const HEALTH_TIMEOUT_MS = 60_000
const STOP_GRACE_MS = 10_000
/** workerd's log lines reach us a moment after the heartbeat's answer. */
const LOG_FLUSH_MS = 1_000

function positiveInt(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`)
  return n
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): { port: number; beats: number } {
  const unknown = argv.filter((arg) => arg !== "--once")
  if (unknown.length > 0) throw new Error(`unknown argument(s): ${unknown.join(" ")} (only --once)`)
  const port = env.PORT ? positiveInt("PORT", env.PORT) : 8787
  let beats = env.SLOTWISE_DEV_BEATS ? positiveInt("SLOTWISE_DEV_BEATS", env.SLOTWISE_DEV_BEATS) : Infinity
  if (argv.includes("--once")) beats = 1
  return { port, beats }
}

const stop = new AbortController()
let stopping = false

/** Stops everything and exits with `code`; the first call wins, later ones (a second Ctrl+C, a child's exit) do nothing. */
async function shutdown(code: number, reason: string): Promise<void> {
  if (stopping) return
  stopping = true
  say(reason)
  stop.abort()
  await stopWranglers(STOP_GRACE_MS)
  process.exit(code)
}

async function main(): Promise<void> {
  const { port, beats } = readOptions(process.argv.slice(2), process.env)
  const ctx: DevContext = { port }
  const origin = `http://127.0.0.1:${port}`

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => void shutdown(0, `${signal}: stopping wrangler`))
  }

  if (await isListening(port)) throw new Error(`127.0.0.1:${port} is already in use (another wrangler dev?); set PORT`)
  await prepare(prepareSteps, ctx)
  if (stopping) return

  const inspector = await inspectorPort(port)
  say(`inspector (DevTools): 127.0.0.1:${inspector}`)
  const dev = spawnWrangler(devArgs(port, inspector))
  dev.once("exit", (code, signal) => {
    if (!stopping) void shutdown(code || 1, `wrangler dev exited (${signal ?? `code ${code}`})`)
  })

  if (!(await waitForHealth(origin, HEALTH_TIMEOUT_MS, stop.signal))) {
    if (!stopping) await shutdown(1, `${origin}/health did not answer {ok:true} within ${HEALTH_TIMEOUT_MS / 1000} s`)
    return
  }
  await seedDemo(origin, ctx.adminToken ?? "")
  say(`dashboard: ${origin}/admin   token: ${ctx.adminToken} (from .dev.vars)`)
  say(`${origin} is up; firing the heartbeat now and at every UTC minute (Ctrl+C stops)`)
  await runHeartbeats({ url: origin, cron: DEFAULT_CRON, beats, signal: stop.signal, log: { info: say, warn } })
  await sleep(LOG_FLUSH_MS)
  if (!stopping) await shutdown(0, `${beats} heartbeat(s) done: stopping wrangler`)
}

main().catch((error: unknown) => {
  warn(describe(error))
  void shutdown(1, "failed: stopping")
})
