import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { once } from "node:events"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { DEFAULT_CRON, fire, minuteOf } from "../../bin/local-heartbeat.js"
import { waitForHealth } from "../../scripts/dev/health.ts"
import { ROOT } from "../../scripts/dev/wrangler.ts"

const WRANGLER_BIN = path.join(ROOT, "node_modules/.bin/wrangler")
const MIGRATIONS_TIMEOUT_MS = 120_000
const HEALTH_TIMEOUT_MS = 90_000
const STOP_GRACE_MS = 10_000
const KEPT_LOG_LINES = 200
const D1_TIMEOUT_MS = 60_000
/** The answer waits for scheduled(): every due job's run. */
const BEAT_TIMEOUT_MS = 60_000

/** A `wrangler dev` of the real Worker on a free port, with its own state directory and admin token. */
export interface LocalWorker {
  origin: string
  token: string
  /** wrangler's latest output lines, for a failure message. */
  log: () => string
  /** Stops wrangler's whole process group and removes the state directory; safe to call twice. */
  stop: () => Promise<void>
  /** Runs SQL on the Worker's local D1, through `wrangler d1 execute` on the same state directory. */
  d1: (sql: string) => Promise<void>
  /**
   * Fires the heartbeat for the minute of `time` through slotwise-heartbeat's fire (as npm start does), with
   * the Worker's cron unless another is named; throws unless 2xx.
   */
  beat: (time: number, cron?: string) => Promise<void>
}

/** A port nothing listens on right now (the OS picks it). */
async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = server.address()
  server.close()
  if (address === null || typeof address === "string") throw new Error("no TCP port was assigned")
  return address.port
}

interface Wrangler {
  child: ChildProcess
  exited: Promise<void>
  stop: () => Promise<void>
}

/** Its own process group (detached), so stopping it also stops workerd and every helper it started. */
function launch(args: string[], env: Record<string, string>, lines: string[]): Wrangler {
  const child = spawn(process.execPath, [WRANGLER_BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  })
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean))
    lines.splice(0, Math.max(0, lines.length - KEPT_LOG_LINES))
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once("exit", () => resolve())
  })
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal)
    } catch {
      // The group is gone already.
    }
  }
  // A backstop for a test process that dies without running afterAll.
  const onExit = () => signalGroup("SIGKILL")
  process.once("exit", onExit)
  const stop = async () => {
    signalGroup("SIGTERM")
    const timer = setTimeout(() => signalGroup("SIGKILL"), STOP_GRACE_MS)
    await exited
    clearTimeout(timer)
    // wrangler may be gone while workerd, in the same group, is still shutting down.
    signalGroup("SIGKILL")
    process.off("exit", onExit)
  }
  return { child, exited, stop }
}

async function runToEnd(args: string[], env: Record<string, string>, timeoutMs: number): Promise<void> {
  const lines: string[] = []
  const wrangler = launch(args, env, lines)
  const timer = setTimeout(() => void wrangler.stop(), timeoutMs)
  try {
    await wrangler.exited
  } finally {
    clearTimeout(timer)
  }
  const { exitCode, signalCode } = wrangler.child
  if (exitCode !== 0) {
    throw new Error(`wrangler ${args.join(" ")} ended with ${signalCode ?? `code ${exitCode}`}:\n${lines.join("\n")}`)
  }
}

/** Applies the D1 migrations to a fresh state directory, then starts `wrangler dev` on it and waits for /health. */
export async function startWorker(token = randomBytes(24).toString("hex")): Promise<LocalWorker> {
  const dir = await mkdtemp(path.join(tmpdir(), "slotwise-browser-"))
  const persist = path.join(dir, "state")
  const env = { WRANGLER_LOG_PATH: path.join(dir, "logs") }
  const lines: string[] = []
  let dev: Wrangler | undefined
  const stop = async () => {
    await dev?.stop()
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await runToEnd(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], env, MIGRATIONS_TIMEOUT_MS)
    const [port, inspectorPort] = [await freePort(), await freePort()]
    dev = launch(
      [
        "dev",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--inspector-port",
        String(inspectorPort),
        "--persist-to",
        persist,
        "--var",
        `ADMIN_TOKEN:${token}`,
        // Running locally: the seeded webhooks point at http://127.0.0.1.
        "--var",
        "SLOTWISE_LOCAL:1",
        "--show-interactive-dev-session=false",
      ],
      // wrangler also looks for the required secret in its environment when there is no .dev.vars (CI).
      { ...env, ADMIN_TOKEN: token },
      lines,
    )
    const origin = `http://127.0.0.1:${port}`
    const gaveUp = new AbortController()
    void dev.exited.then(() => gaveUp.abort())
    if (!(await waitForHealth(origin, HEALTH_TIMEOUT_MS, gaveUp.signal))) {
      throw new Error(`${origin}/health did not answer {ok:true}:\n${lines.join("\n")}`)
    }
    const d1 = (sql: string) =>
      runToEnd(["d1", "execute", "DB", "--local", "--persist-to", persist, "--command", sql], env, D1_TIMEOUT_MS)
    const beat = async (time: number, cron = DEFAULT_CRON) => {
      const quiet = { info: () => {}, warn: () => {} }
      const signal = AbortSignal.timeout(BEAT_TIMEOUT_MS)
      const { ok, line } = await fire({ url: origin, cron, minute: minuteOf(time), signal, log: quiet })
      if (!ok) throw new Error(line)
    }
    return { origin, token, log: () => lines.join("\n"), stop, d1, beat }
  } catch (error) {
    await stop()
    throw error
  }
}
