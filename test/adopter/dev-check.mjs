// The hand-written adopter (the files docs/add-to-a-worker.md shows) under a real `wrangler dev`, as its author would
// try it (run.sh runs this after the guide's `wrangler d1 migrations apply` and the build): the heartbeat fired
// through wrangler's scheduled endpoint by `slotwise-heartbeat`, the job's run and a stream's delivery observed in D1
// through `wrangler d1 execute`, the Worker's own cron beside slotwise's, admin closed without the token of .dev.vars
// and open with it.
import { setTimeout as delay } from "node:timers/promises"
import {
  adminToken,
  COMMAND_TIMEOUT_MS,
  checker,
  d1,
  fireCron,
  HEARTBEAT,
  run,
  runCheck,
  startDev,
} from "./wrangler-dev.mjs"

const DELIVERY_TIMEOUT_MS = 30_000
const EXISTING_CRON = "0 3 * * *"
const HEARTBEAT_CRON = "* * * * *"
const { say, check } = checker("dev-check")

async function main() {
  const token = adminToken()
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

  const fired = (await run(HEARTBEAT, ["--beats", "1", "--url", origin])).trim()
  say(fired)
  // The minute slotwise-heartbeat fired: "heartbeat "* * * * *" 2026-11-30T10:00Z: HTTP 200 ok".
  const minute = /heartbeat "[^"]+" (\S+Z): HTTP 200/.exec(fired)?.[1]
  check(minute !== undefined, `slotwise-heartbeat fired one minute and was answered 200`)
  const slot = Date.parse((minute ?? "").replace("Z", ":00Z"))
  const again = await fireCron(origin, HEARTBEAT_CRON, slot + 30_000)
  check(again.ok, `a second heartbeat of the same slot is answered ${again.status}`)
  const existing = Date.UTC(2030, 0, 7, 3, 0)
  const nightly = await fireCron(origin, EXISTING_CRON, existing)
  check(nightly.ok, `the Worker's own cron "${EXISTING_CRON}" is answered ${nightly.status}`)

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
  // One `wrangler d1 execute` a round reads what each fire and delivery wrote, until both deliveries are in.
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS
  let [reports, exports, lease, received] = [[], [], [], []]
  while (Date.now() < deadline) {
    ;[reports, exports, lease, received] = await d1(
      "SELECT slot, run_id FROM reports",
      "SELECT at FROM exports",
      "SELECT last_slot, holder FROM jobs_leases WHERE name = 'reports.minutely'",
      "SELECT idempotency_key, payload, due_at FROM received ORDER BY idempotency_key",
    )
    if (received.length >= expected.length) break
    await delay(1_000)
  }
  check(
    reports.length === 1 && reports[0].slot === slot,
    `the heartbeat ran reports.minutely once for slot ${slot}, whatever fired: ${JSON.stringify(reports)}`,
  )
  check(exports.length === 1 && exports[0].at === existing, `"${EXISTING_CRON}" ran the Worker's own task only`)
  check(lease[0]?.last_slot === slot && lease[0]?.holder === null, `the lease holds slot ${slot}, released`)
  check(
    received.map((row) => row.idempotency_key).join() === expected.join() &&
      received.every((row) => Number.isInteger(row.due_at)),
    `the stream delivered both to adopter.echo, which wrote D1: ${JSON.stringify(received)}`,
  )
}

await runCheck("dev-check", main)
