import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { fileURLToPath } from "node:url"

export const ROOT = fileURLToPath(new URL("../../", import.meta.url))
/** The project's pinned wrangler, run by this same Node (22), whatever `node` is on PATH. */
const WRANGLER_BIN = fileURLToPath(new URL("../../node_modules/.bin/wrangler", import.meta.url))

const live = new Set<ChildProcess>()

/**
 * Starts wrangler with the project root as cwd and its output passed straight through.
 * stdin is closed, so wrangler never prompts nor grabs the terminal (no hotkeys: Ctrl+C stays a signal).
 */
export function spawnWrangler(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [WRANGLER_BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  })
  live.add(child)
  child.once("exit", () => live.delete(child))
  return child
}

/** Runs one wrangler command to completion; rejects on a non-zero exit or after `timeoutMs`. */
export async function runWrangler(args: string[], timeoutMs: number, env: Record<string, string> = {}): Promise<void> {
  const child = spawnWrangler(args, env)
  const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs)
  try {
    const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null]
    if (code !== 0) {
      throw new Error(`wrangler ${args.join(" ")} ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}`)
    }
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
