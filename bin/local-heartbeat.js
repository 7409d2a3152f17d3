// The local heartbeat behind `npx slotwise-heartbeat` and `npm start`: `wrangler dev` does not fire Cron
// Triggers, so this fires the Worker's heartbeat through wrangler's scheduled endpoint at every UTC minute
// its cron names, as Cloudflare would. Plain JavaScript: it runs from the installed package, unbuilt.
import { setTimeout as delay } from "node:timers/promises"
import { Cron } from "croner"

export const MINUTE_MS = 60_000
/** wrangler dev's documented endpoint for a scheduled event (newer versions rewrite it to /cdn-cgi/local/scheduled). */
export const SCHEDULED_PATH = "/cdn-cgi/handler/scheduled"
export const DEFAULT_URL = "http://127.0.0.1:8787"
/** The heartbeat's default Cron Trigger (Jobs.heartbeat's HEARTBEAT_CRON). */
export const DEFAULT_CRON = "* * * * *"
/** The answer waits for scheduled() to finish, and a job may run for up to 15 minutes. */
const BEAT_TIMEOUT_MS = 16 * MINUTE_MS
/** Long waits (a daily cron) are slept in pieces: a timer cannot hold 25 days, and a laptop's clock jumps on resume. */
const SLEEP_PIECE_MS = 60 * MINUTE_MS

export const USAGE = `Usage: npx slotwise-heartbeat [--url ${DEFAULT_URL}] [--cron "${DEFAULT_CRON}"] [--beats N]

Fires the Worker's slotwise heartbeat against a running \`wrangler dev\`, which does not fire
Cron Triggers by itself: at once if the cron names the current minute, then at every UTC
minute it names, through ${SCHEDULED_PATH}?cron=<cron>&time=<minute in ms>.
One line per fire; Ctrl+C (SIGINT) or SIGTERM stops it.

Options:
  --url URL    where wrangler dev listens (default: ${DEFAULT_URL})
  --cron CRON  the heartbeat's Cron Trigger, as in wrangler.toml and Jobs.heartbeat
               (default: "${DEFAULT_CRON}")
  --beats N    stop after N fires (default: run until stopped)
  -h, --help   show this help

Exit status: 0, or 1 when a fire was not answered with 2xx, or 2 for a bad argument.`

export class UsageError extends Error {
  name = "UsageError"
}

/** The command line's options; throws UsageError naming the option. */
export function parseArgs(argv) {
  const options = { url: DEFAULT_URL, cron: DEFAULT_CRON, beats: Number.POSITIVE_INFINITY, help: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === "-h" || arg === "--help") {
      options.help = true
      continue
    }
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined]
    if (!["--url", "--cron", "--beats"].includes(name)) throw new UsageError(`unknown argument "${arg}"`)
    const value = inline ?? argv[++i]
    if (value === undefined) throw new UsageError(`${name} needs a value`)
    options[name.slice(2)] = value
  }
  options.url = checkUrl(options.url)
  cronOf(options.cron)
  if (typeof options.beats === "string") {
    const beats = Number(options.beats)
    if (!Number.isInteger(beats) || beats < 1)
      throw new UsageError(`--beats must be a positive integer, got "${options.beats}"`)
    options.beats = beats
  }
  return options
}

function checkUrl(url) {
  let parsed
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_URL}, got "${url}"`)
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_URL}, got "${url}"`)
  }
  return url.replace(/\/+$/, "")
}

/** The cron's UTC minutes; throws UsageError naming --cron. */
function cronOf(cron) {
  const fields = cron.trim().split(/\s+/)
  if (fields.length !== 5) throw new UsageError(`--cron must have 5 fields (UTC minutes), got "${cron}"`)
  try {
    return new Cron(cron, { mode: "5-part", timezone: "UTC", paused: true })
  } catch (error) {
    throw new UsageError(`--cron "${cron}" is not a valid cron: ${error.message}`)
  }
}

export const minuteOf = (ms) => Math.floor(ms / MINUTE_MS) * MINUTE_MS
const label = (minute) => new Date(minute).toISOString().replace(":00.000Z", "Z")

/** The request wrangler dev answers by running scheduled() with this cron and scheduledTime. */
export const scheduledUrl = (url, cron, minute) =>
  `${url}${SCHEDULED_PATH}?cron=${encodeURIComponent(cron)}&time=${minute}`

const describe = (error) => {
  if (!(error instanceof Error)) return String(error)
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message
}

/** Fires the heartbeat for one minute and logs one line; never throws. */
export async function fire({ url, cron, minute, signal, log, fetch = globalThis.fetch }) {
  const what = `heartbeat "${cron}" ${label(minute)}`
  try {
    const res = await fetch(scheduledUrl(url, cron, minute), {
      signal: AbortSignal.any([signal, AbortSignal.timeout(BEAT_TIMEOUT_MS)]),
    })
    const body = (await res.text()).trim().slice(0, 200)
    const line = `${what}: HTTP ${res.status}${body ? ` ${body}` : ""}`
    if (res.ok) log.info(line)
    else log.warn(line)
    return { ok: res.ok, line }
  } catch (error) {
    if (signal.aborted) return { ok: false, line: `${what}: stopped` }
    const line = `${what}: failed: ${describe(error)}`
    log.warn(line)
    return { ok: false, line }
  }
}

const sleepFor = (ms, signal) => delay(Math.max(0, ms), undefined, { signal }).catch(() => {})

/**
 * Fires every UTC minute `cron` names from now on, like the Cron Trigger: a slow answer does not hold
 * up the next fire, and a minute missed (sleep, suspend) is not made up. Resolves once `beats` fires
 * are answered, or when `signal` aborts; `failed` counts the fires not answered with 2xx.
 */
export async function runHeartbeats({
  url,
  cron,
  beats = Number.POSITIVE_INFINITY,
  signal,
  log,
  now = Date.now,
  sleep = sleepFor,
  fetch = globalThis.fetch,
}) {
  const pattern = cronOf(cron)
  const after = (ms) => pattern.nextRun(new Date(ms))?.getTime()
  const inFlight = new Set()
  let fired = 0
  let failed = 0
  let minute = minuteOf(now())
  if (!pattern.match(new Date(minute))) minute = after(minute)
  while (minute !== undefined && !signal.aborted) {
    while (now() < minute && !signal.aborted) await sleep(Math.min(minute - now(), SLEEP_PIECE_MS), signal)
    if (signal.aborted) break
    const current = minuteOf(now())
    if (current > minute) {
      // Woke minutes late (a suspended laptop): the minutes missed are not made up, as on Cloudflare.
      minute = pattern.match(new Date(current)) ? current : after(current)
      continue
    }
    const beat = fire({ url, cron, minute, signal, log, fetch }).then((result) => {
      if (!result.ok && !signal.aborted) failed++
    })
    inFlight.add(beat)
    beat.finally(() => inFlight.delete(beat))
    if (++fired >= beats) break
    // Strictly after this minute: a timer that wakes a millisecond early must not fire it twice.
    minute = after(Math.max(minute, minuteOf(now())))
  }
  await Promise.allSettled(inFlight)
  return { fired, failed }
}

/** The command: parses `argv`, runs until `signal` aborts or the beats are done, and answers the exit status. */
export async function main(argv, { signal, stdout = console.log, stderr = console.error, ...deps } = {}) {
  let options
  try {
    options = parseArgs(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    stderr(`slotwise-heartbeat: ${error.message}\n\n${USAGE}`)
    return 2
  }
  if (options.help) {
    stdout(USAGE)
    return 0
  }
  const log = {
    info: (line) => stdout(`slotwise-heartbeat: ${line}`),
    warn: (line) => stderr(`slotwise-heartbeat: ${line}`),
  }
  const forever = options.beats === Number.POSITIVE_INFINITY
  log.info(
    `firing "${options.cron}" at ${options.url}${SCHEDULED_PATH} each UTC minute it names` +
      (forever ? " (Ctrl+C stops)" : `, ${options.beats} time(s)`),
  )
  const { failed } = await runHeartbeats({ ...deps, ...options, signal, log })
  return failed > 0 ? 1 : 0
}
