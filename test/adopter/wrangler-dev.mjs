// What dev-check.mjs and init-check.mjs share: the Worker's own wrangler and slotwise-heartbeat, run from its
// node_modules on whatever Node `node` is here, a `wrangler dev` in its own process group, its local D1, and one
// bounded run of a check that always stops wrangler dev. Plain Node with no dependency: it runs in the copy.
import { spawn } from "node:child_process"
import { once } from "node:events"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { setTimeout as delay } from "node:timers/promises"

export const WRANGLER = "node_modules/.bin/wrangler"
export const HEARTBEAT = "node_modules/.bin/slotwise-heartbeat"
/** The whole check; every wait below is bounded by its own, shorter timeout too. */
const CHECK_TIMEOUT_MS = 180_000
const START_TIMEOUT_MS = 90_000
export const COMMAND_TIMEOUT_MS = 45_000
const STOP_GRACE_MS = 10_000

/** The admin token `wrangler dev` reads from .dev.vars. */
export function adminToken() {
  const token = /^ADMIN_TOKEN=(.+)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.trim()
  if (!token) throw new Error(".dev.vars has no ADMIN_TOKEN line")
  return token
}

/** wrangler dev's output, kept for the report of a failure and for log lines a check looks for. */
export const devLines = []
const keep = (chunk) => devLines.push(...chunk.toString().split("\n").filter(Boolean))

export function checker(name) {
  const say = (line) => console.log(`${name}: ${line}`)
  const check = (ok, what) => {
    if (!ok) throw new Error(what)
    say(`ok: ${what}`)
  }
  return { say, check }
}

async function freePort() {
  const server = createServer().listen(0, "127.0.0.1")
  await once(server, "listening")
  const { port } = server.address()
  server.close()
  return port
}

/** Runs a command of the Worker's own install to its end; throws with its output unless it exits 0 in time. */
export async function run(command, args) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] })
  let [stdout, output] = ["", ""]
  child.stdout.on("data", (chunk) => {
    stdout += chunk
    output += chunk
  })
  child.stderr.on("data", (chunk) => (output += chunk))
  const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_TIMEOUT_MS)
  const [code, signal] = await once(child, "exit")
  clearTimeout(timer)
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} ended with ${signal ?? `code ${code}`}:\n${output}`)
  return stdout
}

/** The rows each query answers on the local D1 that `wrangler dev` uses, in one `wrangler d1 execute`. */
export async function d1(...queries) {
  const stdout = await run(WRANGLER, ["d1", "execute", "DB", "--local", "--json", "--command", queries.join("; ")])
  return JSON.parse(stdout).map((answer) => answer.results)
}

// Its own process group, so that stopping it stops workerd too.
const dev = { child: undefined, exited: undefined }
/** Signals wrangler dev's whole process group (workerd with it). */
function signalGroup(child, name) {
  try {
    process.kill(-child.pid, name)
  } catch {
    // The group is gone already.
  }
}
async function stopDev() {
  const { child, exited } = dev
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  signalGroup(child, "SIGTERM")
  const timer = setTimeout(() => signalGroup(child, "SIGKILL"), STOP_GRACE_MS)
  await exited
  clearTimeout(timer)
  signalGroup(child, "SIGKILL")
}

/** Times wrangler dev is started again on new ports when another process took a port it was given first. */
const PORT_ATTEMPTS = 3

/**
 * Starts `wrangler dev` on free ports and answers its origin once `/` answers 2xx. A free port can be taken by
 * another process (a check beside this one) before wrangler binds it: then it starts again on new ports.
 */
export async function startDev() {
  for (let attempt = 1; ; attempt++) {
    const seen = devLines.length
    const origin = await startDevOnce()
    if (origin) return origin
    const taken = devLines.slice(seen).some((line) => line.includes("Address already in use"))
    signalGroup(dev.child, "SIGKILL")
    if (!taken || attempt === PORT_ATTEMPTS)
      throw new Error(`wrangler dev exited (status ${dev.child.exitCode}) before it answered`)
    console.log(`wrangler dev: a port was taken before it bound it; starting again on new ports (${attempt})`)
  }
}

/** One start: its origin once `/` answers, undefined when wrangler dev exits first. */
async function startDevOnce() {
  const [port, inspectorPort] = [await freePort(), await freePort()]
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort)]
  dev.child = spawn(WRANGLER, [...args, "--show-interactive-dev-session=false"], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  })
  dev.exited = once(dev.child, "exit")
  dev.child.stdout.on("data", keep)
  dev.child.stderr.on("data", keep)
  const origin = `http://127.0.0.1:${port}`
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline && dev.child.exitCode === null) {
    const res = await fetch(`${origin}/`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined)
    if (res?.ok) return origin
    await delay(500)
  }
  if (dev.child.exitCode !== null) return undefined
  throw new Error(`wrangler dev did not answer ${origin}/ within ${START_TIMEOUT_MS} ms`)
}

/** What wrangler dev answers by running scheduled() with this cron and time, as a Cron Trigger would. */
export const fireCron = (origin, cron, time) =>
  fetch(`${origin}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}&time=${time}`, {
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
  })

/** Runs `main` within the check's bound, always stops wrangler dev, and exits 0 or 1 with one closing line. */
export async function runCheck(name, main) {
  const watchdog = setTimeout(() => {
    console.error(`${name}: gave up after ${CHECK_TIMEOUT_MS} ms`)
    void stopDev().then(() => process.exit(1))
  }, CHECK_TIMEOUT_MS)
  let status = 0
  try {
    await main()
  } catch (error) {
    status = 1
    console.error(`${name}: FAILED: ${error instanceof Error ? error.message : error}`)
    console.error(`wrangler dev's last lines:\n${devLines.slice(-60).join("\n")}`)
  } finally {
    await stopDev()
    clearTimeout(watchdog)
  }
  console.log(`${name}: ${status === 0 ? "passed; wrangler dev stopped" : "failed; wrangler dev stopped"}`)
  process.exit(status)
}
