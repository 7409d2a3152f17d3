// A create-cloudflare template after `npx slotwise init`, under a real `wrangler dev` (run.sh runs this after the
// guide's `wrangler d1 migrations apply`): `node init-check.mjs <template>`. The Worker's own routes answer as before
// (its Durable Object's too), admin at /admin is closed without the token init wrote to .dev.vars and open with it,
// and one heartbeat from `slotwise-heartbeat` runs init's example job: its own log line, the run's, and the run
// recorded in its lease row (admin's jobs); the scheduled template's own scheduled() runs on that cron too.
import {
  adminToken,
  COMMAND_TIMEOUT_MS,
  checker,
  devLines,
  fireCron,
  HEARTBEAT,
  run,
  runCheck,
  startDev,
} from "./wrangler-dev.mjs"

const EXAMPLE_JOB = "example.hello"
const template = process.argv[2] ?? "hello-world"
const { say, check } = checker(`init-check ${template}`)

/** Each template's own routes, as create-cloudflare writes them: the path and what it answers. */
const OWN_ROUTES = {
  "hello-world": [["/", (text) => text === "Hello World!"]],
  scheduled: [["/", (text) => text.startsWith("To test the scheduled handler")]],
  // Its fetch asks its Durable Object, whose sayHello answers.
  "hello-world-durable-object": [["/", (text) => text === "Hello, world!"]],
  // The app's route, and the static assets beside it.
  hono: [
    ["/message", (text) => text === "Hello Hono!"],
    ["/", (text) => text.includes("<html")],
  ],
}

async function main() {
  const token = adminToken()
  const origin = await startDev()
  say(`wrangler dev answers at ${origin}`)
  const get = (path, headers = {}) =>
    fetch(`${origin}${path}`, { headers, signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS) })

  for (const [route, expected] of OWN_ROUTES[template]) {
    const own = await get(route)
    const text = await own.text()
    check(own.status === 200 && expected(text), `the Worker's own ${route} answers as before: ${text.slice(0, 60)}`)
  }
  const closed = await get("/admin/jobs")
  check(closed.status === 401, `admin without the token answers 401 (got ${closed.status})`)
  const open = await get("/admin/jobs", { authorization: `Bearer ${token}` })
  const names = open.ok ? (await open.json()).jobs.map((job) => job.name) : []
  check(
    open.status === 200 && names.join() === `${EXAMPLE_JOB},schedules.alarm-watchdog`,
    `admin with the token init wrote answers 200 with the jobs (got ${open.status}: ${names})`,
  )

  let slot
  if (template === "scheduled") {
    // Its own scheduled() runs after the heartbeat on "* * * * *" and fetches a Cloudflare API, which fails offline
    // (wrangler dev answers 500 then): the cron is fired directly, and what both handlers did is read back.
    slot = Math.floor(Date.now() / 60_000) * 60_000
    const fired = await fireCron(origin, "* * * * *", slot)
    say(`"* * * * *" at ${new Date(slot).toISOString()}: HTTP ${fired.status}`)
  } else {
    const fired = (await run(HEARTBEAT, ["--beats", "1", "--url", origin])).trim()
    say(fired)
    // The minute slotwise-heartbeat fired: "heartbeat "* * * * *" 2026-11-30T10:00Z: HTTP 200 ok".
    const minute = /heartbeat "[^"]+" (\S+Z): HTTP 200/.exec(fired)?.[1]
    check(minute !== undefined, "slotwise-heartbeat fired one minute and was answered 200")
    slot = Date.parse((minute ?? "").replace("Z", ":00Z"))
  }
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
  if (template === "scheduled") {
    // Its own log line where the network answers; offline, its fetch's lookup failing is the trace it ran.
    const own = devLines.find((line) => /trigger fired at \* \* \* \* \*|failed to lookup address/.test(line))
    check(own !== undefined, `the Worker's own scheduled() ran on "* * * * *" after the heartbeat: ${own}`)
  }
}

await runCheck(`init-check ${template}`, main)
