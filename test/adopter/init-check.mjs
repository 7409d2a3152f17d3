// create-cloudflare's hello world after `npx slotwise init`, under a real `wrangler dev` (run.sh runs this after
// the guide's `wrangler d1 migrations apply`): its own fetch answers as before, admin at /admin is closed without the
// token init wrote to .dev.vars and open with it, and one heartbeat from `slotwise-heartbeat` runs init's example
// job: its own log line, the run's, and the run recorded in its lease row (admin's jobs).
import {
  adminToken,
  COMMAND_TIMEOUT_MS,
  checker,
  devLines,
  HEARTBEAT,
  run,
  runCheck,
  startDev,
} from "./wrangler-dev.mjs"

const EXAMPLE_JOB = "example.hello"
const { say, check } = checker("init-check")

async function main() {
  const token = adminToken()
  const origin = await startDev()
  say(`wrangler dev answers at ${origin}`)
  const get = (path, headers = {}) =>
    fetch(`${origin}${path}`, { headers, signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS) })

  const hello = await get("/")
  check(hello.status === 200 && (await hello.text()) === "Hello World!", "the Worker's own fetch answers Hello World!")
  const closed = await get("/admin/jobs")
  check(closed.status === 401, `admin without the token answers 401 (got ${closed.status})`)
  const open = await get("/admin/jobs", { authorization: `Bearer ${token}` })
  const names = open.ok ? (await open.json()).jobs.map((job) => job.name) : []
  check(
    open.status === 200 && names.join() === `${EXAMPLE_JOB},schedules.alarm-watchdog`,
    `admin with the token init wrote answers 200 with the jobs (got ${open.status}: ${names})`,
  )

  const fired = (await run(HEARTBEAT, ["--beats", "1", "--url", origin])).trim()
  say(fired)
  // The minute slotwise-heartbeat fired: "heartbeat "* * * * *" 2026-11-30T10:00Z: HTTP 200 ok".
  const minute = /heartbeat "[^"]+" (\S+Z): HTTP 200/.exec(fired)?.[1]
  check(minute !== undefined, "slotwise-heartbeat fired one minute and was answered 200")
  const slot = Date.parse((minute ?? "").replace("Z", ":00Z"))
  const after = await get("/admin/jobs", { authorization: `Bearer ${token}` })
  const job = (await after.json()).jobs.find((item) => item.name === EXAMPLE_JOB)
  check(
    job?.lastRun?.slot === slot && job.lastRun.outcome === "ran" && job.lease.lastSlot === slot,
    `admin shows ${EXAMPLE_JOB}'s run of slot ${slot}: ${JSON.stringify({ lease: job?.lease, lastRun: job?.lastRun })}`,
  )
  const said = devLines.find((line) => line.includes('"message":"hello from slotwise"'))
  check(said?.includes(`"job":"${EXAMPLE_JOB}"`) === true, `the job's own log line reached wrangler dev: ${said}`)
  const logged = devLines.find(
    (line) => line.includes('"message":"job.run"') && line.includes(`"job":"${EXAMPLE_JOB}"`),
  )
  check(logged?.includes('"outcome":"ran"') === true, `wrangler dev logged the run: ${logged}`)
}

await runCheck("init-check", main)
