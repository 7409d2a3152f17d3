// The adopter under a real `wrangler dev`, as its author would try it (run.sh runs this after the build): the
// heartbeat fired through wrangler's scheduled endpoint by `slotwise-heartbeat`, the job's run and a stream's
// delivery observed in D1 through `wrangler d1 execute`, the Worker's own cron beside slotwise's, admin closed
// without the token of .dev.vars and open with it. Plain Node with no dependency: it runs in the adopter's copy.
import { spawn } from "node:child_process"
import { once } from "node:events"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { setTimeout as delay } from "node:timers/promises"

const WRANGLER = "node_modules/.bin/wrangler"
const HEARTBEAT = "node_modules/.bin/slotwise-heartbeat"
/** The whole check; every wait below is bounded by its own, shorter timeout too. */
const CHECK_TIMEOUT_MS = 150_000
const START_TIMEOUT_MS = 60_000
const COMMAND_TIMEOUT_MS = 45_000
const DELIVERY_TIMEOUT_MS = 30_000
const STOP_GRACE_MS = 10_000
const EXISTING_CRON = "0 3 * * *"
const HEARTBEAT_CRON = "* * * * *"

const token = /^ADMIN_TOKEN=(.+)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.trim()
if (!token) throw new Error(".dev.vars has no ADMIN_TOKEN line")

const lines = []
const keep = (chunk) => lines.push(...chunk.toString().split("\n").filter(Boolean))
const say = (line) => console.log(`dev-check: ${line}`)

function check(ok, what) {
  if (!ok) throw new Error(what)
  say(`ok: ${what}`)
}

async function freePort() {
  const server = createServer().listen(0, "127.0.0.1")
  await once(server, "listening")
  const { port } = server.address()
  server.close()
  return port
}

/** Runs a command of the adopter's own install to its end; throws with its output unless it exits 0 in time. */
async function run(command, args) {
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

/** The rows a query answers on the local D1 that `wrangler dev` uses. */
async function d1(sql) {
  const stdout = await run(WRANGLER, ["d1", "execute", "DB", "--local", "--json", "--command", sql])
  return JSON.parse(stdout)[0].results
}

// Its own process group, so that stopping it stops workerd too.
const dev = { child: undefined, exited: undefined }
async function stopDev() {
  const { child, exited } = dev
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
  const signal = (name) => {
    try {
      process.kill(-child.pid, name)
    } catch {
      // The group is gone already.
    }
  }
  signal("SIGTERM")
  const timer = setTimeout(() => signal("SIGKILL"), STOP_GRACE_MS)
  await exited
  clearTimeout(timer)
  signal("SIGKILL")
}

async function startDev() {
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
  throw new Error(`wrangler dev did not answer ${origin}/ within ${START_TIMEOUT_MS} ms`)
}

/** What wrangler dev answers by running scheduled() with this cron and time, as a Cron Trigger would. */
const fireCron = (origin, cron, time) =>
  fetch(`${origin}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}&time=${time}`, {
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
  })

async function main() {
  await run(WRANGLER, ["d1", "migrations", "apply", "DB", "--local"])
  const origin = await startDev()
  say(`wrangler dev answers at ${origin}`)
  const admin = (path, init = {}) =>
    fetch(`${origin}/ops${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
      signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
    })

  const closed = await fetch(`${origin}/ops/jobs`, { signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS) })
  check(closed.status === 401, `admin without the token answers 401 (got ${closed.status})`)
  const open = await admin("/jobs")
  const names = open.ok ? (await open.json()).jobs.map((job) => job.name) : []
  check(
    open.status === 200 && names.join() === "reports.minutely,schedules.alarm-watchdog",
    `admin with the token of .dev.vars answers 200 with the Worker's jobs (got ${open.status}: ${names})`,
  )

  say((await run(HEARTBEAT, ["--beats", "1", "--url", origin])).trim())
  const ran = await d1("SELECT slot, run_id FROM reports")
  check(
    ran.length === 1 && ran[0].slot % 60_000 === 0,
    `the heartbeat ran reports.minutely once: ${JSON.stringify(ran)}`,
  )
  const slot = ran[0].slot
  const again = await fireCron(origin, HEARTBEAT_CRON, slot + 30_000)
  check(again.ok, `a second heartbeat of the same slot is answered ${again.status}`)
  const existing = Date.UTC(2030, 0, 7, 3, 0)
  const nightly = await fireCron(origin, EXISTING_CRON, existing)
  check(nightly.ok, `the Worker's own cron "${EXISTING_CRON}" is answered ${nightly.status}`)
  const [reports, exports, lease] = await Promise.all([
    d1("SELECT slot FROM reports"),
    d1("SELECT at FROM exports"),
    d1("SELECT last_slot, holder FROM jobs_leases WHERE name = 'reports.minutely'"),
  ])
  check(reports.length === 1, `the exclusive job ran its slot once, whatever fired (${reports.length} rows)`)
  check(exports.length === 1 && exports[0].at === existing, `"${EXISTING_CRON}" ran the Worker's own task only`)
  check(lease[0]?.last_slot === slot && lease[0]?.holder === null, `the lease holds slot ${slot}, released`)

  const remind = await fetch(`${origin}/remind/7`, { method: "POST", signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS) })
  const welcome = await remind.json()
  check(
    remind.status === 201 && welcome.state === "scheduled",
    `POST /remind/7 upserts user-7/welcome (${remind.status})`,
  )
  const put = await admin("/streams/user-8/schedules/soon", {
    method: "PUT",
    body: JSON.stringify({ consumer: "adopter.echo", after: "2 seconds", payload: { message: "soon" } }),
  })
  check(put.ok, `admin's PUT upserts user-8/soon, due in 2 seconds (${put.status})`)
  const trigger = await admin("/streams/user-7/schedules/welcome/trigger", { method: "POST" })
  check(trigger.ok, `admin's trigger makes user-7/welcome due now (${trigger.status})`)

  // Each schedule's key, as its upsert answered it: schedule:<stream>/<id>@<incarnation>:<occurrence>.
  const soon = (await put.json()).schedule
  const expected = [welcome.idempotencyKey, soon.idempotencyKey]
  check(
    expected.every((key, i) =>
      new RegExp(`^schedule:${["user-7/welcome", "user-8/soon"][i]}@[0-9a-f]{12}:1$`).test(key),
    ),
    `each upsert answers its occurrence's idempotency key: ${JSON.stringify(expected)}`,
  )
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS
  let received = []
  while (Date.now() < deadline) {
    received = await d1("SELECT idempotency_key, payload, due_at FROM received ORDER BY idempotency_key")
    if (received.length >= expected.length) break
    await delay(1_000)
  }
  check(
    received.map((row) => row.idempotency_key).join() === expected.join() &&
      received.every((row) => Number.isInteger(row.due_at)),
    `the stream delivered both to adopter.echo, which wrote D1: ${JSON.stringify(received)}`,
  )
}

const watchdog = setTimeout(() => {
  console.error(`dev-check: gave up after ${CHECK_TIMEOUT_MS} ms`)
  void stopDev().then(() => process.exit(1))
}, CHECK_TIMEOUT_MS)
let status = 0
try {
  await main()
} catch (error) {
  status = 1
  console.error(`dev-check: FAILED: ${error instanceof Error ? error.message : error}`)
  console.error(`wrangler dev's last lines:\n${lines.slice(-60).join("\n")}`)
} finally {
  await stopDev()
  clearTimeout(watchdog)
}
say(status === 0 ? "passed; wrangler dev stopped" : "failed; wrangler dev stopped")
process.exit(status)
