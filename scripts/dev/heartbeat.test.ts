import { spawn } from "node:child_process"
import { once } from "node:events"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import {
  DEFAULT_CRON,
  MINUTE_MS,
  main,
  parseArgs,
  runHeartbeats,
  SCHEDULED_PATH,
  UsageError,
} from "../../bin/local-heartbeat.js"
import { ROOT } from "./wrangler.ts"

const COMMAND = path.join(ROOT, "bin/slotwise-heartbeat.js")
const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 10, 30, hh, mm, ss)

/** A clock that only moves when the command sleeps: `late` adds to one sleep, as a suspended laptop would. */
function fakeClock(start: number, late: Record<number, number> = {}) {
  let t = start
  let sleeps = 0
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms + (late[sleeps++] ?? 0)
    },
  }
}

/** A fetch that answers each fire with the next of `answers` (200 "ok" once they run out) and records what it asked. */
function fakeFetch(answers: Array<() => Response> = []) {
  const asked: URL[] = []
  const fetch = async (input: string | URL | Request) => {
    asked.push(new URL(String(input)))
    return (answers.shift() ?? (() => new Response("ok")))()
  }
  return {
    asked,
    fetch: fetch as typeof globalThis.fetch,
    times: () => asked.map((url) => url.searchParams.get("time")),
  }
}

function recordingLog() {
  const lines: Array<{ level: "info" | "warn"; line: string }> = []
  return {
    lines,
    log: {
      info: (line: string) => lines.push({ level: "info", line }),
      warn: (line: string) => lines.push({ level: "warn", line }),
    },
  }
}

const base = { url: "http://127.0.0.1:8787", cron: DEFAULT_CRON, signal: new AbortController().signal }

describe("the local heartbeat (slotwise-heartbeat, npm start's driver)", () => {
  it("fires the current minute at once, then each UTC minute boundary, with time=<minute ms> and the cron", async () => {
    const { asked, fetch, times } = fakeFetch()
    const { lines, log } = recordingLog()
    const result = await runHeartbeats({ ...base, beats: 3, log, fetch, ...fakeClock(at(10, 0, 30)) })
    expect(result).toEqual({ fired: 3, failed: 0 })
    expect(times()).toEqual([at(10, 0), at(10, 1), at(10, 2)].map(String))
    expect(asked.map((url) => [url.origin, url.pathname, url.searchParams.get("cron")])).toEqual(
      Array(3).fill(["http://127.0.0.1:8787", "/cdn-cgi/handler/scheduled", "* * * * *"]),
    )
    expect(lines).toEqual([
      { level: "info", line: 'heartbeat "* * * * *" 2026-11-30T10:00Z: HTTP 200 ok' },
      { level: "info", line: 'heartbeat "* * * * *" 2026-11-30T10:01Z: HTTP 200 ok' },
      { level: "info", line: 'heartbeat "* * * * *" 2026-11-30T10:02Z: HTTP 200 ok' },
    ])
  })

  it("fires only the minutes its cron names", async () => {
    const { fetch, times } = fakeFetch()
    const { log } = recordingLog()
    const clock = fakeClock(at(10, 1, 30))
    await runHeartbeats({ ...base, cron: "*/5 * * * *", beats: 2, log, fetch, ...clock })
    expect(times()).toEqual([at(10, 5), at(10, 10)].map(String))
    expect(clock.now()).toBe(at(10, 10))
  })

  it("does not make up the minutes missed while the machine slept: it fires the minute it wakes in", async () => {
    const { fetch, times } = fakeFetch()
    const { log } = recordingLog()
    await runHeartbeats({ ...base, beats: 3, log, fetch, ...fakeClock(at(10, 0, 30), { 0: 3 * MINUTE_MS + 5_000 }) })
    expect(times()).toEqual([at(10, 0), at(10, 4), at(10, 5)].map(String))
  })

  it("warns about an answer that is not 2xx or a refused connection, counts it failed, and keeps firing", async () => {
    const refused = () => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:8787") })
    }
    const { fetch } = fakeFetch([() => new Response("exception", { status: 500 }), refused])
    const { lines, log } = recordingLog()
    expect(await runHeartbeats({ ...base, beats: 3, log, fetch, ...fakeClock(at(11, 0)) })).toEqual({
      fired: 3,
      failed: 2,
    })
    // Each fire is answered on its own: the lines come in the order the answers do.
    expect(lines.sort((a, b) => a.line.localeCompare(b.line))).toEqual([
      { level: "warn", line: 'heartbeat "* * * * *" 2026-11-30T11:00Z: HTTP 500 exception' },
      {
        level: "warn",
        line: 'heartbeat "* * * * *" 2026-11-30T11:01Z: failed: fetch failed (connect ECONNREFUSED 127.0.0.1:8787)',
      },
      { level: "info", line: 'heartbeat "* * * * *" 2026-11-30T11:02Z: HTTP 200 ok' },
    ])
  })

  it("stops when its signal aborts, ending a fire still in flight without a warning", async () => {
    const stop = new AbortController()
    let asked = 0
    const hanging = ((_: unknown, init?: RequestInit) => {
      asked++
      return new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      )
    }) as typeof globalThis.fetch
    const { lines, log } = recordingLog()
    const sleep = async () => stop.abort()
    const result = await runHeartbeats({
      ...base,
      signal: stop.signal,
      log,
      fetch: hanging,
      now: () => at(12, 0),
      sleep,
    })
    expect(result).toEqual({ fired: 1, failed: 0 })
    expect(asked).toBe(1)
    expect(lines).toEqual([])
  })

  it("refuses a bad argument naming the option, and reads --name=value too", () => {
    expect(() => parseArgs(["--cron", "0 * * * * *"])).toThrow(
      '--cron must have 5 fields (UTC minutes), got "0 * * * * *"',
    )
    expect(() => parseArgs(["--cron", "61 * * * *"])).toThrow(/^--cron "61 \* \* \* \*" is not a valid cron/)
    expect(() => parseArgs(["--url", "127.0.0.1:8787"])).toThrow(/^--url must be an http\(s\) URL/)
    expect(() => parseArgs(["--beats", "0"])).toThrow('--beats must be a positive integer, got "0"')
    expect(() => parseArgs(["--every", "1"])).toThrow(UsageError)
    expect(() => parseArgs(["--url"])).toThrow("--url needs a value")
    expect(parseArgs(["--url=http://localhost:9000/", "--cron=*/5 * * * *", "--beats", "2"])).toEqual({
      url: "http://localhost:9000",
      cron: "*/5 * * * *",
      beats: 2,
      help: false,
    })
  })

  it("answers 2 for a bad argument and 0 for --help, printing the usage", async () => {
    const out: string[] = []
    const err: string[] = []
    const io = {
      signal: new AbortController().signal,
      stdout: (l: string) => out.push(l),
      stderr: (l: string) => err.push(l),
    }
    expect(await main(["--cron", "often"], io)).toBe(2)
    expect(err.join("\n")).toMatch(/^slotwise-heartbeat: --cron must have 5 fields[\s\S]*Usage: npx slotwise-heartbeat/)
    expect(await main(["--help"], io)).toBe(0)
    expect(out.join("\n")).toContain(SCHEDULED_PATH)
  })
})

describe("the slotwise-heartbeat command, run as a process", () => {
  let server: Server | undefined
  afterEach(() => {
    server?.close()
    server = undefined
  })

  /** A stand-in for wrangler dev's scheduled endpoint: answers "ok" and records each request. */
  async function endpoint() {
    const requests: URL[] = []
    let answered = () => {}
    const first = new Promise<void>((resolve) => {
      answered = resolve
    })
    server = createServer((req: IncomingMessage, res) => {
      requests.push(new URL(req.url ?? "/", "http://127.0.0.1"))
      res.end("ok", answered)
    })
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, first }
  }

  function run(args: string[]) {
    const child = spawn(process.execPath, [COMMAND, ...args], { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => {
      stdout += chunk
    })
    child.stderr.on("data", (chunk) => {
      stderr += chunk
    })
    const exited = once(child, "exit").then(([code, signal]) => ({ code, signal, stdout, stderr }))
    return { child, exited, stdout: () => stdout }
  }

  it("fires once with --beats 1 and exits 0, logging the answer", async () => {
    const { url, requests } = await endpoint()
    const before = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS
    const { code, stdout, stderr } = await run(["--url", url, "--beats", "1"]).exited
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" })
    expect(requests).toHaveLength(1)
    const [request] = requests as [URL]
    expect(request.pathname).toBe("/cdn-cgi/handler/scheduled")
    expect(request.searchParams.get("cron")).toBe("* * * * *")
    const time = Number(request.searchParams.get("time"))
    expect(time % MINUTE_MS).toBe(0)
    expect(time).toBeGreaterThanOrEqual(before)
    expect(stdout).toMatch(/^slotwise-heartbeat: firing "\* \* \* \* \*" at .*, 1 time\(s\)\n/)
    expect(stdout).toContain(
      `slotwise-heartbeat: heartbeat "* * * * *" ${new Date(time).toISOString().slice(0, 16)}Z: HTTP 200 ok\n`,
    )
  })

  it.each(["SIGINT", "SIGTERM"] as const)("stops cleanly (exit 0) on %s", async (signal) => {
    const { url, first } = await endpoint()
    const command = run(["--url", url])
    await first
    while (!command.stdout().includes("HTTP 200")) await new Promise((resolve) => setImmediate(resolve))
    command.child.kill(signal)
    expect(await command.exited).toMatchObject({ code: 0, signal: null, stderr: "" })
  })
})
