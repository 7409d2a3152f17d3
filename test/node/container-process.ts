import { type ChildProcess, spawn } from "node:child_process"

/** How long a container process may take to listen, or a line to appear. */
export const WITHIN_MS = 20_000

/** A container process started by a test, and the JSON lines it has written so far (stdout and stderr). */
export interface ContainerProcess {
  process: ChildProcess
  url: string
  lines: Array<Record<string, unknown>>
  exited: Promise<number | null>
}

/**
 * Starts `node <args>` in `cwd` with `env` added to this process's environment; resolves once it
 * writes `container.listening`, rejects if it exits first or takes longer than WITHIN_MS.
 */
export function startContainerProcess(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<ContainerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const lines: Array<Record<string, unknown>> = []
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${args.join(" ")} did not listen within ${WITHIN_MS} ms`)),
      WITHIN_MS,
    )
    let buffered = ""
    const read = (chunk: Buffer) => {
      buffered += chunk.toString()
      const complete = buffered.split("\n")
      buffered = complete.pop() ?? ""
      for (const text of complete) {
        if (!text.startsWith("{")) continue
        const line = JSON.parse(text) as Record<string, unknown>
        lines.push(line)
        if (line.message === "container.listening") {
          clearTimeout(timer)
          resolve({ process: child, url: line.url as string, lines, exited })
        }
      }
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    void exited.then((code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${JSON.stringify(lines)}`)))
  })
}

/** Waits until `check` holds, polling; throws naming `what` after WITHIN_MS. */
export async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WITHIN_MS
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${WITHIN_MS} ms`)
    await new Promise((done) => setTimeout(done, 50))
  }
}
