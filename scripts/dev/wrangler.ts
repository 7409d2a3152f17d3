import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { DevOutput } from "./dev-output.ts"

export const ROOT = fileURLToPath(new URL("../../", import.meta.url))
/** The project's pinned wrangler, run by this same Node (22), whatever `node` is on PATH. */
const WRANGLER_BIN = fileURLToPath(new URL("../../node_modules/.bin/wrangler", import.meta.url))

const live = new Set<ChildProcess>()

/** `wrangler dev`'s arguments for npm start: the HTTP port and workerd's inspector port, on 127.0.0.1. */
export const devArgs = (port: number, inspector: number): string[] => [
  "dev",
  "--port",
  String(port),
  "--ip",
  "127.0.0.1",
  "--inspector-port",
  String(inspector),
]

/**
 * Starts wrangler with the project root as cwd; its output is passed through line by line (by
 * `output`, which may add lines) or, with `output` null, kept in the child's pipes for the caller.
 * stdin is closed, so wrangler never prompts nor grabs the terminal (no hotkeys: Ctrl+C stays a signal).
 */
export function spawnWrangler(
  args: string[],
  env: Record<string, string> = {},
  output: DevOutput | null = new DevOutput(),
): ChildProcess {
  const child = spawn(process.execPath, [WRANGLER_BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  if (output) {
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      if (from) createInterface({ input: from }).on("line", (line) => to.write(`${output.lines(line).join("\n")}\n`))
    }
  }
  live.add(child)
  child.once("exit", () => live.delete(child))
  return child
}

/** Runs one wrangler command to completion with its output held back; answers it, or rejects with it. */
export async function runWranglerQuietly(
  args: string[],
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<string> {
  const child = spawnWrangler(args, env, null)
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs)
  try {
    const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null]
    if (code !== 0) {
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`
      throw new Error(`wrangler ${args.join(" ")} ${how}:\n${output}`)
    }
    return output
  } finally {
    clearTimeout(timer)
  }
}

/** SIGTERM to every wrangler still running (wrangler's bin passes it on and stops workerd), SIGKILL after `graceMs`. */
export async function stopWranglers(graceMs: number): Promise<void> {
  await Promise.all(
    [...live].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = once(child, "exit")
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
    }),
  )
}
